/** API messages of DICOMweb (QIDO-RS, WADO-RS), in both languages. */
export const dicomwebMessages = {
  'dicomweb.study_not_found': { 'zh-CN': '没有找到检查 {{uid}}', 'en-US': 'No study {{uid}} was found' },
  'dicomweb.series_not_found': { 'zh-CN': '没有找到序列 {{uid}}', 'en-US': 'No series {{uid}} was found' },
  'dicomweb.instance_not_found': { 'zh-CN': '没有找到实例 {{uid}}', 'en-US': 'No instance {{uid}} was found' },
  'dicomweb.bad_query': { 'zh-CN': '查询参数 {{key}} 的值 {{value}} 无效', 'en-US': 'The query parameter {{key}} has an invalid value {{value}}' },
  'dicomweb.bad_frames': { 'zh-CN': '帧号列表 {{frames}} 无效：应为从 1 开始、以逗号分隔的帧号', 'en-US': 'The frame list {{frames}} is invalid: give frame numbers from 1, separated by commas' },
  'dicomweb.too_many_frames': { 'zh-CN': '一次最多取 {{limit}} 帧', 'en-US': 'At most {{limit}} frames may be retrieved at once' },
  'dicomweb.frame_out_of_range': { 'zh-CN': '帧 {{frame}} 不存在（该实例共 {{frames}} 帧）', 'en-US': 'Frame {{frame}} does not exist (the instance has {{frames}} frames)' },
  'dicomweb.not_acceptable': { 'zh-CN': '无法提供所请求的媒体类型 {{accept}}；可提供：{{offered}}', 'en-US': 'The requested media type {{accept}} cannot be given; available: {{offered}}' },
} as const;
