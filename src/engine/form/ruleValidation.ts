import type { CustomValidator, ErrorSchema } from '@rjsf/utils';
import { formProblems, type RuleResolver } from '../../core/formRules';
import type { Translate } from '../../core/labels';
import type { FormSchema } from '../../core/pageSchema';

type Data = Record<string, unknown>;

/**
 * rjsf's customValidate for a page form: the rule problems of src/core/formRules (an empty required
 * field, failing checks) added to ajv's errors, worded like the server's through `requiredText`.
 * The server runs the same formProblems after its own ajv pass (server/resources/write-validation.ts).
 */
export function ruleValidator(form: FormSchema, creating: boolean, lang: string, translate: Translate | undefined,
  requiredText: string, resolve?: RuleResolver): CustomValidator {
  return (formData, errors, _uiSchema, errorSchema?: ErrorSchema) => {
    const ajvErrors = (errorSchema ?? {}) as Record<string, { __errors?: string[] } | undefined>;
    const problems = formProblems(form, (formData ?? {}) as Data, creating, {
      lang, translate, resolve, flagged: (field) => !!ajvErrors[field]?.__errors?.length,
    });
    for (const [field, list] of Object.entries(problems)) {
      const node = (errors as unknown as Record<string, { addError(m: string): void } | undefined>)[field];
      for (const p of list) {
        if (p.kind === 'required') node?.addError(requiredText);
        else if (p.kind === 'check') node?.addError(p.text);
      }
    }
    return errors;
  };
}
