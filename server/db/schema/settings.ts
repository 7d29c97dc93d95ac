import type { ColumnType, Generated } from 'kysely';

/** Settings, page schema versions, column preferences and the dictionaries administrators keep. */

export interface SettingTable {
  key: string;
  value: string;
  is_public: number;
  updated_at: string;
}

export interface PageSchemaVersionTable {
  id: Generated<number>;
  /** 'page' (schemas/pages) or 'rule' (schemas/rules); versions count per kind, alias and hospital. */
  kind: ColumnType<string, string | undefined, never>;
  alias: string;
  /** 0 for installations without hospitals. */
  hospital_id: number;
  version: number;
  /** JSON merge patch (RFC 7386) over the repository's base schema. */
  override: string;
  note: string | null;
  created_by: string | null;
  created_at: string;
}

export interface ColumnPreferenceTable {
  user_id: number;
  route_key: string;
  /** JSON: [{ prop, hidden }] in the user's order. */
  columns: string;
  updated_at: string;
}

export interface LabelTable {
  id: Generated<number>;
  name: string;
  en_name: string | null;
  parent_id: number | null;
  color: string | null;
  description: string | null;
  rank: number;
  created_at: string;
  updated_at: string;
}

export interface ReagentTable {
  id: Generated<number>;
  name: string;
  /** ihc | special_stain | molecular (spec §4 special examinations) */
  type: string;
  clone_no: string | null;
  manufacturer: string | null;
  specification: string | null;
  status: number;
  rank: number;
  remark: string | null;
  created_at: string;
  updated_at: string;
}

export interface NumberingRuleTable {
  id: Generated<number>;
  hospital_id: number;
  library: string;
  name: string | null;
  prefix: string;
  middle: string;
  connector: string;
  length: number;
  regex: string | null;
  created_at: string;
  updated_at: string;
}

export interface NumberingCounterTable {
  rule_id: number;
  period: string;
  value: number;
}

/** A hospital's price list (migration 0030): one price in yuan per item (src/core/prices.ts). */
export interface PriceItemTable {
  id: Generated<number>;
  hospital_id: number;
  item: string;
  price: number;
  status: number;
  remark: string | null;
  created_at: string;
  updated_at: string;
}
