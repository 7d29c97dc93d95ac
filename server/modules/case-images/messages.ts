/** API messages of case images, in both languages. */
export const caseImageMessages = {
  'case_image.case_not_found': { 'zh-CN': '病例不存在', 'en-US': 'Case not found' },
  'case_image.not_your_attachment': { 'zh-CN': '只能使用自己上传的图片', 'en-US': 'Only an image you uploaded can be used' },
  'case_image.already_used': { 'zh-CN': '该图片已保存到病例', 'en-US': 'This image is already saved to a case' },
  'case_image.not_found': { 'zh-CN': '病例图片不存在', 'en-US': 'Case image not found' },
  'case_image.modality_not_allowed': {
    'zh-CN': '附件的影像类型为 {{modality}}，只能上传 CR、DR、CT、MRI、DSA、RF、US 格式的附件',
    'en-US': 'The attachment\'s modality is {{modality}}: attachments must be CR, DR, CT, MRI, DSA, RF or US images',
  },
  'case_image.dicom_unreadable': { 'zh-CN': '无法读取该 DICOM 文件的文件头', 'en-US': 'The header of this DICOM file cannot be read' },
  'case_image.too_large': { 'zh-CN': '文件超过 {{max}}，不能打开', 'en-US': 'The file is larger than {{max}} and cannot be opened' },
} as const;
