/** API messages of the IIIF routes (CORS, case manifests), in both languages; tiles' own are in slides/messages.ts. */
export const iiifMessages = {
  'iiif.cors_origin_refused': {
    'zh-CN': '不允许来自 {{origin}} 的页面读取图像（IIIF_CORS_ORIGINS 未列出该来源）',
    'en-US': 'Pages from {{origin}} may not read images (IIIF_CORS_ORIGINS does not list that origin)',
  },
  'iiif.case_not_found': { 'zh-CN': '病例不存在', 'en-US': 'The case does not exist' },
  'iiif.case_without_slides': { 'zh-CN': '该病例还没有可浏览的切片', 'en-US': 'The case has no slide to view yet' },
} as const;
