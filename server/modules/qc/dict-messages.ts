/** API messages of the QC dictionary, in both languages. */
export const qcDictMessages = {
  'qc_dict.not_found': { 'zh-CN': '以下字典项不存在或不属于本院：{{ids}}', 'en-US': 'These dictionary entries do not exist or belong to another hospital: {{ids}}' },
  'qc_dict.duplicate': { 'zh-CN': '字典“{{type}}”中已有：{{names}}', 'en-US': 'The “{{type}}” list already has: {{names}}' },
} as const;
