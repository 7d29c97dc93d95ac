import type { FilterCondition, Operator } from './filters.js';

/**
 * The page schema of schemas/meta/page.schema.json as TypeScript types. The meta-schema is the
 * authority (ajv checks it on the server and in the schema editor); these types only describe it.
 */
export type InlineLabel = { 'zh-CN': string; 'en-US': string };
/** An i18n key, or inline text in both languages. */
export type Label = string | InlineLabel;
export type JsonLogic = Record<string, unknown> | boolean;

export type ColumnType = 'text' | 'number' | 'date' | 'datetime' | 'boolean' | 'enum' | 'tag' | 'tags' | 'image' | 'link' | 'filesize' | 'json';

export interface ColumnSchema {
  prop: string;
  label: Label;
  type?: ColumnType;
  options?: string;
  slot?: string;
  headerSlot?: string;
  children?: ColumnSchema[];
  fixed?: 'left' | 'right' | false;
  width?: number;
  sortable?: boolean;
  hidden?: boolean;
  link?: string;
}

export type ActionKind = 'create' | 'edit' | 'detail' | 'delete' | 'patch' | 'request' | 'download';

/** A value asked for before the action runs (select-or-type), sent as `field` in the patch or request body. */
export interface PromptSchema {
  field: string;
  label: Label;
  /** An enum name, `resource:<name>`, or inline options. */
  options?: string | SearchOption[];
  required?: boolean;
  requiredMessage?: Label;
}

export interface ActionRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  /** 'ids': one request for all the rows, body `{ ids: [...] }`; otherwise one request per row. */
  body?: 'ids';
  /** Fixed fields of the body (e.g. `{ "pathology_number": null }` to unbind). */
  data?: Record<string, unknown>;
}

export interface ActionSchema {
  key: string;
  label: Label;
  kind: ActionKind;
  permission?: string;
  visibleIf?: JsonLogic;
  confirm?: Label;
  passwordConfirm?: boolean;
  patch?: Record<string, unknown>;
  request?: ActionRequest;
  prompt?: PromptSchema;
  appearance?: 'primary' | 'secondary' | 'subtle' | 'danger';
}

export interface TabSchema {
  key: string;
  label: Label;
  filter?: FilterCondition[];
}

/** A card of the cards layout; each entry names a column's `prop` (its type formats the value). */
export interface CardSchema {
  image?: string;
  title: string;
  subtitle?: string[];
  meta?: string[];
}

export type ListLayout = 'table' | 'cards';

export interface ListSchema {
  columns: ColumnSchema[];
  /** The layout shown first; with `card`, a toggle switches between table and cards. */
  layout?: ListLayout;
  card?: CardSchema;
  rowKey?: string;
  tabs?: TabSchema[];
  rowActions?: ActionSchema[];
  batchActions?: ActionSchema[];
  toolbar?: ActionSchema[];
  selectable?: boolean;
  tree?: boolean;
  reorder?: { rankField?: string };
  defaultSort?: Record<string, 'asc' | 'desc'>;
  pageSizes?: number[];
  defaultPageSize?: number;
}

export type SearchItemType =
  | 'input' | 'number' | 'numberrange' | 'select' | 'multiselect' | 'selectinput' | 'date' | 'daterange' | 'datetimerange' | 'boolean';

export interface SearchOption { value: unknown; label: Label; color?: string }

export interface SearchItem {
  name: string;
  label: Label;
  type: SearchItemType;
  /** An enum name, `resource:<name>`, or inline options. */
  options?: string | SearchOption[];
  model?: string;
  operator?: Operator;
  props?: Record<string, unknown>;
  prepend?: string;
  prependName?: string;
  prependOptions?: unknown[];
  formatFunc?: string;
  status?: boolean;
  show?: boolean;
}

export interface SearchSchema {
  items?: SearchItem[];
  manual?: boolean;
  keyword?: boolean;
  /** A wide keyword box on a line of its own (search pages). */
  prominent?: boolean;
  /** What the keyword box searches, shown in it. */
  keywordPlaceholder?: Label;
}

export interface FormRules {
  visibleIf?: Record<string, JsonLogic>;
  requiredIf?: Record<string, JsonLogic>;
  checks?: { rule: JsonLogic; field: string; message: Label }[];
}

/** Where a form that is not a resource record loads from and saves to. */
export type FormSource =
  | { setting: string }
  | { load: string; save: { method: 'POST' | 'PATCH' | 'PUT'; url: string } };

export interface FormSchema {
  schema: Record<string, unknown>;
  source?: FormSource;
  uiSchema?: Record<string, unknown>;
  createOnly?: string[];
  rules?: FormRules;
  /** Password fields sent sealed with the server's public key (ARCHITECTURE §6). */
  seal?: string[];
}

export interface DetailSchema {
  sections: { title: Label; fields: ColumnSchema[] }[];
}

export type PageType = 'list' | 'form' | 'detail' | 'iframe';

export interface PageSchema {
  alias: string;
  type: PageType | string;
  title?: Label;
  resource?: string;
  list?: ListSchema;
  search?: SearchSchema;
  form?: FormSchema;
  detail?: DetailSchema;
  iframe?: { urlParam?: string; allowedOrigins?: string[] };
}

/** The resource description the server sends with a page schema (GET /api/schemas/{alias}). */
export interface ResourceInfo {
  name: string;
  route: string;
  rowKey?: string;
  columns: Record<string, { type: string; filter?: boolean; sort?: boolean; search?: boolean }>;
  permissions: { list: string; read: string; create: string; update: string; delete: string };
}

export interface LoadedSchema {
  alias: string;
  version: number;
  schema: PageSchema;
  resource: ResourceInfo | null;
}
