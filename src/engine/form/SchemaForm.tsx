import Form from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formView, serverErrorsToErrorSchema } from '../../core/formRules';
import { resolveUiSchemaLabels } from '../../core/labels';
import type { FormSchema } from '../../core/pageSchema';
import { rjsfTranslator, translateErrors } from '../../widgets/rjsf/messages';
import { fluentTemplates } from '../../widgets/rjsf/templates';
import { fluentWidgets } from '../../widgets/rjsf/widgets';
import { useLabel } from '../../widgets/useLabel';
import { useRuleResolver } from './ruleResolverContext';
import { ruleValidator } from './ruleValidation';

type Data = Record<string, unknown>;

export interface SchemaFormProps {
  form: FormSchema;
  creating: boolean;
  initialData: Data;
  /** Server 422 `errors: { field: [text] }`, shown on their fields until the field changes. */
  serverErrors?: Record<string, string[]> | null;
  /** The <form> id, so buttons outside it (a drawer footer) can submit it. */
  formId: string;
  disabled?: boolean;
  onSubmit(data: Data): void;
}

/**
 * The page schema's form in rjsf with our Fluent widgets and templates. The json-logic rules of
 * src/core/formRules (the server applies the same) run on every change: visibleIf and createOnly hide
 * fields, requiredIf adjusts `required`, checks add errors on their field; labels in the uiSchema are
 * resolved to the current language first.
 */
export default function SchemaForm({ form, creating, initialData, serverErrors, formId, disabled, onSubmit }: SchemaFormProps) {
  const { t } = useTranslation();
  const { lang, translate } = useLabel();
  const [data, setData] = useState<Data>(initialData);
  const [cleared, setCleared] = useState<Set<string>>(new Set());
  const lastServerErrors = useRef(serverErrors);
  if (lastServerErrors.current !== serverErrors) {
    lastServerErrors.current = serverErrors;
    if (cleared.size) setCleared(new Set());
  }

  const resolve = useRuleResolver();
  const view = useMemo(() => formView(form, data, creating, { resolve }), [form, data, creating, resolve]);
  const uiSchema = useMemo(() => resolveUiSchemaLabels(view.uiSchema, lang, translate), [view.uiSchema, lang, translate]);
  const extraErrors = useMemo(() => {
    const open = Object.fromEntries(Object.entries(serverErrors ?? {}).filter(([k]) => !cleared.has(k.split('.')[0])));
    return serverErrorsToErrorSchema(open);
  }, [serverErrors, cleared]);

  const customValidate = useMemo(() => ruleValidator(form, creating, lang, translate, t('validation.required'), resolve),
    [form, creating, lang, translate, t, resolve]);

  return (
    <Form id={formId} schema={view.schema as RJSFSchema} uiSchema={uiSchema} formData={data} validator={validator}
      widgets={fluentWidgets} templates={fluentTemplates} disabled={disabled}
      translateString={rjsfTranslator(t)} transformErrors={translateErrors(t)} customValidate={customValidate}
      extraErrors={extraErrors as never} showErrorList="top" noHtml5Validate focusOnFirstError
      experimental_defaultFormStateBehavior={{ arrayMinItems: { populate: 'never' } }}
      onChange={(e) => {
        const next = (e.formData ?? {}) as Data;
        const changed = Object.keys({ ...data, ...next }).filter((k) => JSON.stringify(data[k]) !== JSON.stringify(next[k]));
        if (changed.length) setCleared((c) => new Set([...c, ...changed]));
        setData(next);
      }}
      onSubmit={(e) => onSubmit((e.formData ?? {}) as Data)}>
      <></>
    </Form>
  );
}
