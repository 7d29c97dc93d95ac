import { Button, Field, MessageBar, MessageBarBody, MessageBarTitle, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, ArrowDown20Regular, ArrowUp20Regular, Copy20Regular, Delete20Regular, Dismiss16Regular } from '@fluentui/react-icons';
import {
  getTemplate, getUiOptions, TranslatableString, type ArrayFieldItemTemplateProps, type ArrayFieldTemplateProps, type BaseInputTemplateProps,
  type DescriptionFieldProps, type ErrorListProps, type FieldErrorProps, type FieldHelpProps, type FieldTemplateProps, type IconButtonProps,
  type ObjectFieldTemplateProps, type SubmitButtonProps, type TemplatesType, type TitleFieldProps,
} from '@rjsf/utils';
import { TextWidget } from './widgets';

/** rjsf templates in Fluent UI v9: a Fluent Field per field, a two-column object grid, arrays with icon buttons. */
const useStyles = makeStyles({
  object: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`, border: 'none', margin: 0, padding: 0, minWidth: 0 },
  wide: { gridColumn: '1 / -1' },
  title: { gridColumn: '1 / -1', fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold, margin: 0 },
  description: { gridColumn: '1 / -1', color: tokens.colorNeutralForeground2, margin: 0 },
  array: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, border: 'none', margin: 0, padding: 0, minWidth: 0 },
  item: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-start' },
  itemBody: { flexGrow: 1, minWidth: 0 },
  hidden: { display: 'none' },
});

function FieldTemplate(props: FieldTemplateProps) {
  const s = useStyles();
  const { id, label, children, rawErrors, rawHelp, rawDescription, hidden, required, displayLabel, schema, uiSchema, registry } = props;
  if (hidden) return <div className={s.hidden}>{children}</div>;
  const WrapIfAdditionalTemplate = getTemplate('WrapIfAdditionalTemplate', registry, getUiOptions(uiSchema));
  const container = schema.type === 'object' || (schema.type === 'array' && !getUiOptions(uiSchema).widget && !(schema.items as { enum?: unknown })?.enum);
  if (container) return <WrapIfAdditionalTemplate {...props}><div className={s.wide}>{children}</div></WrapIfAdditionalTemplate>;
  const errors = (rawErrors ?? []).filter(Boolean);
  return (
    <WrapIfAdditionalTemplate {...props}>
      <Field label={displayLabel ? { children: label, htmlFor: id } : undefined} required={displayLabel && required}
        validationState={errors.length ? 'error' : 'none'} validationMessage={errors.length ? errors.join('; ') : undefined}
        hint={rawHelp || (displayLabel ? rawDescription : undefined) || undefined} data-field={id}>
        {children}
      </Field>
    </WrapIfAdditionalTemplate>
  );
}

function ObjectFieldTemplate({ title, description, properties, fieldPathId, uiSchema }: ObjectFieldTemplateProps) {
  const s = useStyles();
  const wide = (getUiOptions(uiSchema).wide as string[] | undefined) ?? [];
  return (
    <fieldset className={s.object} id={fieldPathId.$id}>
      {title && fieldPathId.$id !== 'root' ? <h3 className={s.title}>{title}</h3> : null}
      {description ? <p className={s.description}>{description}</p> : null}
      {properties.filter((p) => !p.hidden).map((p) => (
        <div key={p.name} className={wide.includes(p.name) ? s.wide : undefined}>{p.content}</div>
      ))}
      {properties.filter((p) => p.hidden).map((p) => <div key={p.name} className={s.hidden}>{p.content}</div>)}
    </fieldset>
  );
}

function ArrayFieldTemplate({ items, canAdd, onAddClick, title, fieldPathId, disabled, readonly, registry, uiSchema }: ArrayFieldTemplateProps) {
  const s = useStyles();
  const { AddButton } = registry.templates.ButtonTemplates;
  return (
    <fieldset className={s.array} id={fieldPathId.$id}>
      {title ? <h3 className={s.title}>{getUiOptions(uiSchema).title as string || title}</h3> : null}
      {items}
      {canAdd ? <div><AddButton onClick={onAddClick} disabled={disabled || readonly} registry={registry} uiSchema={uiSchema} /></div> : null}
    </fieldset>
  );
}

function ArrayFieldItemTemplate({ children, buttonsProps, hasToolbar, registry, uiSchema }: ArrayFieldItemTemplateProps) {
  const s = useStyles();
  const Buttons = getTemplate('ArrayFieldItemButtonsTemplate', registry, getUiOptions(uiSchema));
  return (
    <div className={s.item}>
      <div className={s.itemBody}>{children}</div>
      {hasToolbar ? <Buttons {...buttonsProps} /> : null}
    </div>
  );
}

/**
 * An error of the form's own rules (a check, a required-when) comes from customValidate as ".field message"; it is
 * listed as ajv's are (translateErrors): the field's title, then the message, never the property path.
 */
function errorText(e: ErrorListProps['errors'][number], uiSchema: ErrorListProps['uiSchema'], schema: ErrorListProps['schema']): string {
  if (!e.property || !e.stack.startsWith(`${e.property} `)) return e.stack;
  const field = e.property.replace(/^\./, '').split('.')[0];
  const ui = (uiSchema as Record<string, { 'ui:title'?: unknown } | undefined> | undefined)?.[field]?.['ui:title'];
  const title = typeof ui === 'string' ? ui : (schema.properties?.[field] as { title?: string } | undefined)?.title;
  return title ? `${title}: ${e.message}` : e.message ?? e.stack;
}

function ErrorListTemplate({ errors, registry, uiSchema, schema }: ErrorListProps) {
  return (
    <MessageBar intent="error" layout="multiline" data-testid="form-errors">
      <MessageBarBody>
        <MessageBarTitle>{registry.translateString(TranslatableString.ErrorsLabel)}</MessageBarTitle>
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>{errors.map((e, i) => <li key={i}>{errorText(e, uiSchema, schema)}</li>)}</ul>
      </MessageBarBody>
    </MessageBar>
  );
}

/** Errors are shown by the Fluent Field of FieldTemplate; help and description too. */
const FieldErrorTemplate = (_: FieldErrorProps) => null;
const FieldHelpTemplate = (_: FieldHelpProps) => null;

function TitleFieldTemplate({ title, id }: TitleFieldProps) {
  const s = useStyles();
  return <h3 id={id} className={s.title}>{title}</h3>;
}
function DescriptionFieldTemplate({ description, id }: DescriptionFieldProps) {
  const s = useStyles();
  return description ? <p id={id} className={s.description}>{description}</p> : null;
}

const BaseInputTemplate = (props: BaseInputTemplateProps) => <TextWidget {...props} />;

const icon = (Icon: typeof Add20Regular, key: TranslatableString) => function IconButton({ registry, onClick, disabled, id, className }: IconButtonProps) {
  const text = registry.translateString(key);
  return <Button id={id} className={className} appearance="subtle" icon={<Icon />} aria-label={text} title={text} disabled={disabled} onClick={onClick} />;
};

function AddButton({ registry, onClick, disabled, id, className }: IconButtonProps) {
  return <Button id={id} className={className} icon={<Add20Regular />} disabled={disabled} onClick={onClick}>{registry.translateString(TranslatableString.AddItemButton)}</Button>;
}
/** The engine draws its own Save / Cancel buttons; rjsf's submit button is not shown. */
const SubmitButton = (_: SubmitButtonProps) => null;

export const fluentTemplates: Partial<Omit<TemplatesType, 'ButtonTemplates'>> & { ButtonTemplates: Partial<TemplatesType['ButtonTemplates']> } = {
  FieldTemplate, ObjectFieldTemplate, ArrayFieldTemplate, ArrayFieldItemTemplate, ErrorListTemplate, FieldErrorTemplate, FieldHelpTemplate,
  TitleFieldTemplate, DescriptionFieldTemplate, BaseInputTemplate,
  ButtonTemplates: {
    AddButton,
    SubmitButton,
    CopyButton: icon(Copy20Regular, TranslatableString.CopyButton),
    MoveDownButton: icon(ArrowDown20Regular, TranslatableString.MoveDownButton),
    MoveUpButton: icon(ArrowUp20Regular, TranslatableString.MoveUpButton),
    RemoveButton: icon(Delete20Regular, TranslatableString.RemoveButton),
    ClearButton: icon(Dismiss16Regular, TranslatableString.ClearButton),
  },
};
