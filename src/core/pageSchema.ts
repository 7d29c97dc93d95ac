import type { FilterCondition, Operator } from './filters.js';
import type { Contract, FieldDef } from './contract.js';
import type { GridSchema } from './rosterGrid.js';

/**
 * The page schema of schemas/meta/page.schema.json as TypeScript types. The meta-schema is the
 * authority (ajv checks it on the server and in the schema editor); these types only describe it.
 *
 * A page names the fields of its resource (`field` everywhere: columns, search items, form fields,
 * prompts, tab filters); what a field is called and what it holds (label, type, options) lives once, on
 * the resource (schemas/resources), and a page says only where it differs. `resolvePage` fills the rest.
 */
export type InlineLabel = { 'zh-CN': string; 'en-US': string };
/** An i18n key, or inline text in both languages. */
export type Label = string | InlineLabel;
export type JsonLogic = Record<string, unknown> | boolean;

/**
 * How a value is drawn in a cell: a kind the engine's cell registry holds (src/engine/cells, `cellKinds()`). The
 * names follow from the registry, so a new kind is its file and its registration, not an edit here.
 */
export type CellKind = string;

export interface ColumnSchema {
  field: string;
  /** Default: the resource field's label. */
  label?: Label;
  /** Default: the resource field's cell, else one for its type (an `options` field is an enum). */
  cell?: CellKind;
  /** An enum name or `resource:<name>`. Default: the resource field's. */
  options?: string;
  width?: number;
  /** Default: whether the resource lets the field sort. */
  sortable?: boolean;
  /** Not shown until the user turns it on in the column settings. */
  hidden?: boolean;
  /** Stays at the left edge while the table scrolls sideways. */
  pinned?: boolean;
  /** A route or URL template (`/kfb/{case_id}/{id}`): the cell links there. */
  link?: string;
  /** A field of the row naming the palette colour the cell is drawn in (src/core/palette.ts; a case's `number_colour`). */
  colorField?: string;
}

/**
 * A column with what the resource supplied: what the renderers read. `choices`: the field's inline options (a
 * field a hospital added in the designer keeps its options with it, not in an enum), so a cell shows their words.
 */
export type Column = ColumnSchema & { label: Label; cell: CellKind; choices?: SearchOption[] };

/** What an action does: a kind the engine's action registry holds (src/engine/actions, `actionKinds()`). */
export type ActionKind = string;

/** A value asked for before the action runs (select-or-type), sent as `field` in the patch or request body. */
export interface PromptSchema {
  field: string;
  label?: Label;
  /** An enum name, `resource:<name>`, or inline options. */
  options?: string | SearchOption[];
  required?: boolean;
  requiredMessage?: Label;
  /** integer: the answer goes as a number (a form action's field). */
  type?: 'string' | 'integer';
  /** A form action's field of several lines (an application's clinical information), across the dialog's width. */
  multiline?: boolean;
  /** An action's prompt: several of the options may be chosen, sent as a list (a slide's unqualified reasons). */
  multiple?: boolean;
  /**
   * An action's prompt: a field of the row whose value the prompt starts with (SlideQC: the focus check's
   * `suggested_reasons` pre-fill "unqualified"). With `multiple`, a list or comma-separated text gives several values;
   * with several rows, the values they all share.
   */
  defaultFrom?: string;
  /**
   * A form action's field whose value is looked up (Enter, or the look-up button): `GET url?<param>=<value>`
   * (param: the field's name), and the answer's fields fill the form's fields of the same names (registration's
   * HIS lookup by outpatient or admission number).
   */
  lookup?: { url: string; param?: string };
}

/** A value the server answers once and keeps no readable copy of (a new API key): shown in a dialog to copy. */
export interface RevealSchema {
  /** The field of the answer shown. */
  field: string;
  label?: Label;
  /** Words under the value, e.g. that it will not be shown again. */
  note?: Label;
}

/**
 * A `scan` action's code list: each scan (a keyboard-wedge scanner types the code and Enter) joins the list, sent
 * as `field`; `check` (POST, with the prompt's answer and the codes) answers each code's status shown beside it.
 */
export interface ScanSchema {
  field: string;
  label?: Label;
  check?: string;
}

export interface ActionRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  /** 'ids': one request for all the rows, body `{ ids: [...] }`; otherwise one request per row. */
  body?: 'ids';
  /** With `body: "ids"`: the body field the rows' values go in (default `ids`). */
  idsField?: string;
  /** With `body: "ids"`: the row field sent for each row (default the row key), e.g. `pathology_number`. */
  idsFrom?: string;
  /** Fixed fields of the body (e.g. `{ "pathology_number": null }` to unbind). */
  data?: Record<string, unknown>;
}

export interface ActionSchema {
  key: string;
  label: Label;
  kind: ActionKind;
  /**
   * A permission code needed besides the one the kind implies (create → the resource's create, edit and
   * patch → update, delete → delete, detail → read). Request and download actions name theirs here.
   */
  permission?: string;
  visibleIf?: JsonLogic;
  /**
   * Shown only to users holding one of these roles (role codes); unset or empty: every role. An administrator
   * sees every action. Hiding is not refusing: the permission code is what the server checks.
   */
  roles?: string[];
  confirm?: Label;
  passwordConfirm?: boolean;
  patch?: Record<string, unknown>;
  request?: ActionRequest;
  prompt?: PromptSchema;
  /** kind=form: the fields of its dialog, sent as the request body (a dotted field builds a nested body). */
  fields?: PromptSchema[];
  /** kind=open: the address opened with the request's answer filled in (`/diagnosis/{id}`); this site only. */
  to?: string;
  /** kind=reveal: the field of the request's answer shown once, copyable (a scanner's new API key). */
  reveal?: RevealSchema;
  /** kind=scan: the box taking successive barcode scans, and where each code's status comes from. */
  scan?: ScanSchema;
  /**
   * kind=transition: the state machine step (`<set>.<step>`, schemas/rules/<set>.json `machine`) the action takes; it is
   * shown only where the step's permission, role rule, starting state and guard let the user take it (stateMachine.ts).
   */
  transition?: string;
  appearance?: 'primary' | 'secondary' | 'subtle' | 'danger';
}

/** A tab filter: the filter DSL of spec §5 with `field` where the wire says `column`. */
export type TabCondition = Omit<FilterCondition, 'column' | 'child'> & {
  field?: string;
  child?: TabCondition[];
  /** Instead of `value`: the time this long before the request (a timeout tab: registered over 72 h ago). */
  ago?: { hours: number };
};

export interface TabSchema {
  key: string;
  label: Label;
  filter?: TabCondition[];
  /** Role codes the page opens on this tab for (the first such tab in order; none held: the first tab). */
  openFor?: string[];
}

/** A card of the cards layout; each entry names a column's field (its cell kind formats the value). */
export type { GridSchema } from './rosterGrid.js';

export interface CardSchema {
  image?: string;
  title: string;
  subtitle?: string[];
  meta?: string[];
}

export type ListLayout = 'table' | 'cards' | 'grid';
/** What a live list listens to on the realtime channel: a source a module registered (src/engine/liveSources.ts). */
export type LiveSource = string;

/**
 * A row of choices above a list (CaseList's progress: spec §4's stage words), one value of `field` at a time with
 * its count; the choice travels as the search value `field` (in the address) and joins the tab and search filters.
 */
export interface FacetSchema {
  field: string;
  /** An enum name: the choices' words and colours. */
  options: string;
  /** Which of the enum's values are offered, in order. Default: all. */
  values?: string[];
  /** GET url answering `{ counts: { value: n }, total }`. */
  counts?: string;
  label?: Label;
}

export interface ListSchema {
  columns: ColumnSchema[];
  facet?: FacetSchema;
  /** Rows are fetched again this often while the page is open (live states, e.g. scanners), none when unset. */
  refreshSeconds?: number;
  /** Refetch quietly whenever the realtime channel announces a change of this source (`refreshSeconds` stays the fallback). */
  live?: LiveSource;
  /** The layout shown first; with `card`, a toggle switches between table and cards. */
  layout?: ListLayout;
  card?: CardSchema;
  /** The grid layout: one field's values down, another's across, a third in each cell (a roster; src/core/rosterGrid.ts). */
  grid?: GridSchema;
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

/** A search item's input: a widget the search widget registry holds (src/widgets/search/fields, `searchWidgets()`). */
export type SearchWidget = string;

export interface SearchOption { value: unknown; label: Label; color?: string }

export interface SearchItem {
  /** The resource field it filters. */
  field: string;
  /** The name its value has in the address, when two items filter one field. Default: `field`. */
  key?: string;
  label?: Label;
  /** Default: from the field's type and options (select, number, daterange …). */
  widget?: SearchWidget;
  /** An enum name, `resource:<name>`, or inline options. Default: the resource field's. */
  options?: string | SearchOption[];
  operator?: Operator;
  props?: Record<string, unknown>;
  /** Offered as a field of the custom search (spec §5). */
  customSearch?: boolean;
  /** Only in the search drawer, not on the bar. */
  drawerOnly?: boolean;
}

/** A search item with what the resource supplied. */
export type SearchField = SearchItem & { key: string; label: Label; widget: SearchWidget };

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
  | { load: string; save: { method: 'POST' | 'PATCH' | 'PUT'; url: string } }
  /** Creates through a command of its own (registration); `open` is a route filled with the answer (`/case/{id}`). */
  | { create: { method: 'POST' | 'PUT'; url: string }; open?: string };

/** `specimens`: a list of specimens, one row each (name, type, fixative, fixed, location, left the body). */
export type FormWidget = 'text' | 'textarea' | 'password' | 'select' | 'multiselect' | 'date' | 'datetime' | 'number' | 'checkbox' | 'switch' | 'specimens';

/** One field of a form's layout: how it is shown; what it accepts is the resource's (or the form's own contract). */
export interface FormFieldLayout {
  field: string;
  label?: Label;
  widget?: FormWidget;
  /** An enum name, `resource:<name>`, or inline options. Default: the field's. */
  options?: string | SearchOption[];
  help?: Label;
  placeholder?: Label;
  readonly?: boolean;
}

export interface FormLayout {
  /** The fields in order: a name, or a name with how to show it. */
  fields: (string | FormFieldLayout)[];
  source?: FormSource;
  /**
   * What a form without a resource accepts (the settings and account forms): its fields, required ones and
   * rules. A resource form's contract is the resource's (layered per hospital), never the page's.
   */
  contract?: Contract;
  /**
   * The resource a form with its own contract writes (the registration form: cases): the hospital's extension
   * of that resource (fields added in the designer, their rules) applies to this form too, in the browser and
   * on the server.
   */
  extends?: string;
}

/** The form as rjsf and the rules read it: a JSON Schema, a uiSchema and the contract's rules. */
export interface FormSchema {
  schema: Record<string, unknown>;
  uiSchema?: Record<string, unknown>;
  createOnly?: string[];
  rules?: FormRules;
  /** Fields the browser seals with the server's public key before sending (the contract's `sealed`). */
  seal?: string[];
  source?: FormSource;
}

export interface DetailSchema {
  /** The record is read again this often while the page is open (live states, e.g. a scanner), never when unset. */
  refreshSeconds?: number;
  /** Read again quietly whenever the realtime channel announces a change of this source (`refreshSeconds` the fallback). */
  live?: LiveSource;
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
  form?: FormLayout;
  detail?: DetailSchema;
  iframe?: { urlParam?: string; allowedOrigins?: string[] };
  /** Hand-written panels drawn below a form page, by name (src/engine/panels): what the engine cannot express. */
  panels?: string[];
}

/**
 * A resource field as the browser learns it (GET /api/schemas/{alias}). `added`: a field the working hospital
 * added to the resource's contract (kept in `extra`): lists show it, but neither sort nor filter by it.
 */
/** `internal`: kept for the system (resource.schema.json), not offered by the designer's pickers. */
export type ResourceField = Pick<FieldDef, 'type' | 'label' | 'options' | 'cell'> & { filter?: boolean; sort?: boolean; search?: boolean; added?: boolean; internal?: boolean };

/** The resource description the server sends with a page schema (GET /api/schemas/{alias}). */
export interface ResourceInfo {
  name: string;
  route: string;
  rowKey: string;
  /** Every readable field (columns and joined ones), with its label, type and options. */
  fields: Record<string, ResourceField>;
  /** What a write accepts, as layered for the working hospital. */
  contract: Contract;
  permissions: { list: string; read: string; create: string; update: string; delete: string };
}

export interface LoadedSchema {
  alias: string;
  version: number;
  schema: PageSchema;
  resource: ResourceInfo | null;
  /** The form's own contract with the hospital's extension of `form.extends` (src/core/contract `layerOwnContract`). */
  formContract?: Contract;
}

/** A page with every field's label, cell and widget filled from its resource, and its form compiled. */
export interface ResolvedPage extends Omit<PageSchema, 'list' | 'search' | 'form' | 'detail'> {
  rowKey: string;
  list?: Omit<ListSchema, 'columns'> & { columns: Column[] };
  search?: Omit<SearchSchema, 'items'> & { items: SearchField[] };
  form?: FormSchema;
  detail?: { refreshSeconds?: number; live?: LiveSource; sections: { title: Label; fields: Column[] }[] };
}

export interface ResolvedSchema {
  alias: string;
  version: number;
  schema: ResolvedPage;
  resource: ResourceInfo | null;
}
