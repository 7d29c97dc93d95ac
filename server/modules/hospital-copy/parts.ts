/**
 * What "copy configuration from another hospital" copies (issue 31): each part a hospital-owned table, the columns
 * that make a row the same one (a row the target already has is left as it is), the columns copied, and the
 * permission its own editing pages need (the copy asks the same).
 */
export const COPY_PARTS = {
  report_templates: {
    table: 'report_templates', key: ['template_name', 'type'],
    copied: ['template_name', 'type', 'sub_type', 'is_word_template', 'layout', 'word_file', 'word_file_name', 'key_words_list', 'is_default'],
    permission: 'system_setting',
  },
  numbering_rules: { table: 'numbering_rules', key: ['library'], copied: ['library', 'name', 'prefix', 'middle', 'connector', 'length', 'regex'], permission: 'system_setting' },
  price_items: { table: 'price_items', key: ['item'], copied: ['item', 'price', 'status', 'remark'], permission: 'price_manage' },
  qc_dict: { table: 'qc_dict', key: ['type', 'name'], copied: ['type', 'name', 'en_name', 'code', 'rank', 'enabled'], permission: 'qc_manage' },
} as const;

export type CopyPart = keyof typeof COPY_PARTS;
export const COPY_PART_NAMES = Object.keys(COPY_PARTS) as CopyPart[];

/** A row's identity within its part: the key columns' values. */
export const keyOf = (part: CopyPart, row: Record<string, unknown>) => JSON.stringify(COPY_PARTS[part].key.map((k) => row[k] ?? null));
