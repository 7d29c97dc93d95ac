/** API messages of DICOM whole-slide import and export, in both languages. */
export const dicomMessages = {
  'dicom.not_dicom': { 'zh-CN': '文件 {{file}} 不是 DICOM 文件', 'en-US': 'File {{file}} is not a DICOM file' },
  'dicom.not_wsi': { 'zh-CN': '文件 {{file}} 不是 DICOM 全玻片图像（SOP 类 {{sopClass}}）', 'en-US': 'File {{file}} is not a DICOM whole-slide image (SOP class {{sopClass}})' },
  'dicom.mixed_series': { 'zh-CN': '压缩包中含有 {{count}} 个序列，每次只能导入一个序列的全部实例', 'en-US': 'The files belong to {{count}} series; import the instances of one series at a time' },
  'dicom.truncated': { 'zh-CN': '文件 {{file}} 不完整（像素数据被截断）', 'en-US': 'File {{file}} is incomplete (its pixel data is cut short)' },
  'dicom.too_many_frames': { 'zh-CN': '文件 {{file}} 声明的帧数 {{frames}} 超出上限或与文件大小不符', 'en-US': 'File {{file}} declares {{frames}} frames, beyond the limit or more than the file can hold' },
  'dicom.syntax_unsupported': { 'zh-CN': '文件 {{file}} 的传输语法 {{syntax}} 暂不支持（支持 JPEG 基线、JPEG 2000 与未压缩）', 'en-US': 'File {{file}} uses transfer syntax {{syntax}}, which is not supported (JPEG baseline, JPEG 2000 and uncompressed are)' },
  'dicom.bad_geometry': { 'zh-CN': '文件 {{file}} 的图像尺寸或瓦片位置不正确：{{width}} × {{height}}，瓦片 {{tile}}', 'en-US': 'File {{file}} has an invalid image size or tile position: {{width}} × {{height}}, tiles {{tile}}' },
  'dicom.too_many_instances': { 'zh-CN': '实例数 {{count}} 超出上限 {{limit}}', 'en-US': '{{count}} instances exceed the limit of {{limit}}' },
  'dicom.no_volume': { 'zh-CN': '没有找到全玻片图像的 VOLUME 实例', 'en-US': 'No VOLUME instance of a whole-slide image was found' },
  'dicom.header_too_large': { 'zh-CN': '文件 {{file}} 的头部超过 {{limit}} 字节', 'en-US': 'The header of file {{file}} exceeds {{limit}} bytes' },
  'dicom.pixels_unsupported': { 'zh-CN': '文件 {{file}} 的像素格式暂不支持：{{detail}}', 'en-US': 'File {{file}} has a pixel format that is not supported: {{detail}}' },
  'dicom.zip_unsafe_path': { 'zh-CN': '压缩包中的路径不安全：{{name}}', 'en-US': 'The zip names an unsafe path: {{name}}' },
  'dicom.zip_unreadable': { 'zh-CN': '压缩包无法读取或已损坏', 'en-US': 'The zip cannot be read or is damaged' },
  'dicom.zip_too_large': { 'zh-CN': '压缩包解压后为 {{bytes}} 字节，超出上限 {{limit}} 字节', 'en-US': 'The zip unpacks to {{bytes}} bytes, beyond the limit of {{limit}}' },
  'dicom.export_failed': { 'zh-CN': '导出 DICOM 失败：{{detail}}', 'en-US': 'The DICOM export failed: {{detail}}' },
} as const;
