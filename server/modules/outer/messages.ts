/** API messages of outer/ocr and the teaching library (outer/jiaopei), in both languages. */
export const outerMessages = {
  'ocr.missing': {
    'zh-CN': '服务器未安装文字识别程序：请管理员安装 tesseract-ocr 和 tesseract-ocr-chi-sim（apt-get install tesseract-ocr tesseract-ocr-chi-sim）',
    'en-US': 'Text recognition is not installed on the server: an administrator installs tesseract-ocr and tesseract-ocr-chi-sim (apt-get install tesseract-ocr tesseract-ocr-chi-sim)',
  },
  'ocr.timeout': { 'zh-CN': '文字识别超过 {{seconds}} 秒未完成，已停止', 'en-US': 'Text recognition took longer than {{seconds}} s and was stopped' },
  'ocr.failed': { 'zh-CN': '文字识别失败：{{reason}}', 'en-US': 'Text recognition failed: {{reason}}' },
  'ocr.busy': { 'zh-CN': '文字识别任务过多，请稍后再试', 'en-US': 'Too many text recognitions are waiting; try again shortly' },
  'ocr.bad_image': { 'zh-CN': '标签图像无法读取或过大', 'en-US': 'The label image cannot be read or is too large' },
  'ocr.no_label': { 'zh-CN': '该切片没有标签图像', 'en-US': 'This slide has no label image' },
  'teaching.not_configured': { 'zh-CN': '尚未配置教学库，请管理员在系统设置中配置', 'en-US': 'The teaching library is not set up; an administrator sets it in the system settings' },
  'teaching.unreachable': { 'zh-CN': '无法连接教学库，请稍后再试或联系管理员', 'en-US': 'The teaching library cannot be reached; try again later or contact the administrator' },
  'teaching.rejected': { 'zh-CN': '教学库拒绝了此请求（{{status}}）', 'en-US': 'The teaching library refused the request ({{status}})' },
  'teaching.library_unknown': { 'zh-CN': '教学库中没有该分类', 'en-US': 'no such library in the teaching system' },
} as const;
