import type { FormSchema, InlineLabel } from './pageSchema.js';

/**
 * The form-rule table both sides run: src/engine/form/ruleValidation.test.ts through rjsf as SchemaForm uses it,
 * tests/api/engine-form-rules.test.ts through a resource write (the form as a hospital override of a page).
 * Field names are free `extra` fields of the cases resource, so the API run can store them.
 */

/** What one field's errors must be; each side words them in its own message files. */
export type Expected = 'required' | 'hidden' | { check: InlineLabel } | { keyword: 'maxLength'; limit: number };

export interface FormRuleCase {
  name: string;
  form: FormSchema;
  creating: boolean;
  /** On update: the stored record the form loads. */
  record?: Record<string, unknown>;
  /** The form's data as the user leaves it (on update: the changes over `record`). */
  data: Record<string, unknown>;
  /** Errors by field for what the browser sends; `{}` is accepted. */
  expect: Record<string, Expected[]>;
  /**
   * A client that posts `data` as is, hidden fields included (the browser never does): what the server
   * answers. Absent: the case has nothing the browser would leave out.
   */
  raw?: Record<string, Expected[]>;
}

const title = (zh: string, en: string) => ({ 'ui:title': { 'zh-CN': zh, 'en-US': en } });

/** An FTP user required by the schema, but shown only for the ftp protocol. */
const ftpForm: FormSchema = {
  schema: {
    type: 'object',
    required: ['ftp_user'],
    properties: { protocol: { type: 'string', enum: ['http', 'ftp'] }, ftp_user: { type: 'string', maxLength: 8 } },
  },
  uiSchema: { protocol: title('协议', 'Protocol'), ftp_user: title('FTP 用户', 'FTP user') },
  rules: { visibleIf: { ftp_user: { '==': [{ var: 'protocol' }, 'ftp'] } } },
};

const chooseTag: InlineLabel = { 'zh-CN': '请至少选择一个标签', 'en-US': 'Choose at least one tag' };
/** Rules over a list: json-logic truthiness, where `[]` is false (JavaScript's `!![]` is true). */
const tagsForm: FormSchema = {
  schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } }, note: { type: 'string' } } },
  uiSchema: { tags: title('标签', 'Tags'), note: title('备注', 'Note') },
  rules: {
    requiredIf: { note: { var: 'tags' } },
    checks: [{ field: 'tags', rule: { var: 'tags' }, message: chooseTag }],
  },
};

const mismatch: InlineLabel = { 'zh-CN': '两次输入的口令不一致', 'en-US': 'The two passphrases do not match' };
/** Like the user form's password: createOnly, required by the schema, confirmed by a check. */
const secretForm: FormSchema = {
  schema: {
    type: 'object',
    required: ['secret'],
    properties: { label_text: { type: 'string' }, secret: { type: 'string', minLength: 2 }, secret_confirmation: { type: 'string' } },
  },
  uiSchema: { label_text: title('名称', 'Label'), secret: title('口令', 'Passphrase'), secret_confirmation: title('确认口令', 'Confirm passphrase') },
  createOnly: ['secret', 'secret_confirmation'],
  rules: {
    requiredIf: { secret_confirmation: { '!!': [{ var: 'secret' }] } },
    checks: [{ field: 'secret_confirmation', rule: { or: [{ '!': [{ var: 'secret' }] }, { '==': [{ var: 'secret' }, { var: 'secret_confirmation' }] }] }, message: mismatch }],
  },
};

export const formRuleCases: FormRuleCase[] = [
  { name: 'a required field hidden by visibleIf is accepted without a value', form: ftpForm, creating: true, data: { protocol: 'http' }, expect: {} },
  { name: 'the same field is required once its rule shows it', form: ftpForm, creating: true, data: { protocol: 'ftp' }, expect: { ftp_user: ['required'] } },
  { name: 'a shown field is checked by its JSON Schema keywords', form: ftpForm, creating: true, data: { protocol: 'ftp', ftp_user: 'anonymous' }, expect: { ftp_user: [{ keyword: 'maxLength', limit: 8 }] } },
  {
    name: 'a value typed before its field was hidden is not sent; a client that sends it is refused',
    form: ftpForm, creating: true, data: { protocol: 'http', ftp_user: 'anon' }, expect: {}, raw: { ftp_user: ['hidden'] },
  },
  {
    name: 'on update, a field hidden by the change keeps its stored value and is not sent',
    form: ftpForm, creating: false, record: { protocol: 'ftp', ftp_user: 'anon' }, data: { protocol: 'http' }, expect: {},
  },
  { name: 'on update, a field shown by the change is required', form: ftpForm, creating: false, record: { protocol: 'http' }, data: { protocol: 'ftp' }, expect: { ftp_user: ['required'] } },
  {
    name: 'an empty list is false for requiredIf and checks, as json-logic says ([] is falsy)',
    form: tagsForm, creating: true, data: { tags: [] }, expect: { tags: [{ check: chooseTag }] },
  },
  { name: 'requiredIf over a non-empty list holds', form: tagsForm, creating: true, data: { tags: ['he'] }, expect: { note: ['required'] } },
  { name: 'a check over a non-empty list passes', form: tagsForm, creating: true, data: { tags: ['he'], note: 'n' }, expect: {} },
  { name: 'a createOnly field is required on create', form: secretForm, creating: true, data: { label_text: 'a' }, expect: { secret: ['required'] } },
  {
    name: 'a createOnly confirmation is required and checked on create',
    form: secretForm, creating: true, data: { label_text: 'a', secret: 's1', secret_confirmation: 's2' }, expect: { secret_confirmation: [{ check: mismatch }] },
  },
  { name: 'create with matching createOnly fields is accepted', form: secretForm, creating: true, data: { label_text: 'a', secret: 's1', secret_confirmation: 's1' }, expect: {} },
  { name: 'a createOnly field required by the schema is not required on update', form: secretForm, creating: false, record: { label_text: 'a' }, data: { label_text: 'b' }, expect: {} },
  {
    name: 'createOnly fields sent on update are checked as on create (the browser does not send them)',
    form: secretForm, creating: false, record: { label_text: 'a' }, data: { secret: 's1', secret_confirmation: 's2' },
    expect: {}, raw: { secret_confirmation: [{ check: mismatch }] },
  },
  {
    name: 'createOnly fields sent on update that pass their checks are accepted (a reset through the API)',
    form: secretForm, creating: false, record: { label_text: 'a' }, data: { secret: 's1', secret_confirmation: 's1' }, expect: {}, raw: {},
  },
];
