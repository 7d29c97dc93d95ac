import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { resolveLabel } from '../core/labels';
import type { Label } from '../core/pageSchema';

/** `label → text` in the current language (inline text, or an i18n key the translation files know). */
export function useLabel() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const translate = useCallback((key: string) => (i18n.exists(key) ? t(key) : undefined), [i18n, t]);
  const label = useCallback((l: Label | unknown) => resolveLabel(l, lang, translate), [lang, translate]);
  return { label, lang, translate };
}
