import { englishStringTranslator, TranslatableString, type RJSFValidationError } from '@rjsf/utils';
import type { TFunction } from 'i18next';

/** rjsf's own strings (buttons, the error list title) through i18next. */
export function rjsfTranslator(t: TFunction) {
  const keys: Partial<Record<TranslatableString, string>> = {
    [TranslatableString.ErrorsLabel]: 'form.errors',
    [TranslatableString.AddItemButton]: 'form.addItem',
    [TranslatableString.AddButton]: 'form.addItem',
    [TranslatableString.RemoveButton]: 'form.remove',
    [TranslatableString.MoveUpButton]: 'form.moveUp',
    [TranslatableString.MoveDownButton]: 'form.moveDown',
    [TranslatableString.CopyButton]: 'form.copy',
    [TranslatableString.ClearButton]: 'form.clear',
  };
  return (str: TranslatableString, params?: string[]) => (keys[str] ? t(keys[str]!) : englishStringTranslator(str, params));
}

/** ajv keywords we word ourselves; anything else keeps ajv's English text. */
const KEYWORDS = ['required', 'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'type', 'enum', 'minimum', 'maximum', 'const'];

/** ajv's English messages → the current language, with the field's title in the error list. */
export function translateErrors(t: TFunction) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] => errors.map((e) => {
    if (!e.name || !KEYWORDS.includes(e.name)) return e;
    const params = (e.params ?? {}) as Record<string, unknown>;
    const message = t(`validation.${e.name}`, { limit: params.limit ?? '', format: params.format ?? '', type: params.type ?? '' });
    return { ...e, message, stack: e.title ? `${e.title}: ${message}` : message };
  });
}
