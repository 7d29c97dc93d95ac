/** API messages of the QC dictionary, in both languages. */
export const qcDictMessages = {
  'qc_dict.not_found': { 'zh-CN': '以下字典项不存在或不属于本院：{{ids}}', 'en-US': 'These dictionary entries do not exist or belong to another hospital: {{ids}}' },
  'qc_dict.type_fixed': { 'zh-CN': '字典项不能移到另一个字典；请在该字典中新增', 'en-US': 'An entry cannot move to another list; add it to that list instead' },
  'qc_dict.duplicate': { 'zh-CN': '字典“{{type}}”中已有：{{names}}', 'en-US': 'The “{{type}}” list already has: {{names}}' },
} as const;
