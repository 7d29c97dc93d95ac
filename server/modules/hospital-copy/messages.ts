/** API messages of copying configuration from another hospital, in both languages. */
export const hospitalCopyMessages = {
  'copy.same_hospital': { 'zh-CN': '不能从正在使用的医院复制到它自己', 'en-US': 'Configuration cannot be copied from the hospital you are working in to itself' },
  'copy.not_member': { 'zh-CN': '您不属于医院 {{id}}：只能从您所属的医院复制', 'en-US': 'You do not belong to hospital {{id}}: copy only from a hospital you belong to' },
} as const;
