/** API messages of case images, in both languages. */
export const caseImageMessages = {
  'case_image.case_not_found': { 'zh-CN': '病例不存在', 'en-US': 'Case not found' },
  'case_image.not_your_attachment': { 'zh-CN': '只能使用自己上传的图片', 'en-US': 'Only an image you uploaded can be used' },
  'case_image.already_used': { 'zh-CN': '该图片已保存到病例', 'en-US': 'This image is already saved to a case' },
  'case_image.not_found': { 'zh-CN': '病例图片不存在', 'en-US': 'Case image not found' },
} as const;
