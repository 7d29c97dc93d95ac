/** API messages of slides and tiles, in both languages. */
export const slideMessages = {
  'slide.not_found': { 'zh-CN': '切片信息未找到', 'en-US': 'Slide information not found' },
  'tile.not_found': { 'zh-CN': '请求的瓦片不存在', 'en-US': 'The requested tile does not exist' },
  'tile.bad_address': { 'zh-CN': '瓦片地址不正确：{{path}}', 'en-US': 'Malformed tile address: {{path}}' },
  'tile.unreadable': { 'zh-CN': '切片文件无法读取（不是金字塔 TIFF 或文件已损坏）', 'en-US': 'The slide file cannot be read (not a pyramidal TIFF, or damaged)' },
  'tile.read_failed': { 'zh-CN': '读取切片文件失败，请稍后重试', 'en-US': 'Reading the slide file failed; try again later' },
  'tile.compression_unsupported': { 'zh-CN': '暂不支持该切片的压缩格式：{{compression}}', 'en-US': 'This slide uses a compression that is not supported yet: {{compression}}' },
  'tile.region_too_large': { 'zh-CN': '请求的区域过大（需读取 {{pixels}} 像素，上限 {{limit}}），请缩小区域或降低尺寸', 'en-US': 'The requested region is too large ({{pixels}} source pixels, limit {{limit}}); ask for a smaller region or size' },
  'iiif.bad_region': { 'zh-CN': 'IIIF 区域参数不正确：{{value}}', 'en-US': 'Invalid IIIF region: {{value}}' },
  'iiif.bad_size': { 'zh-CN': 'IIIF 尺寸参数不正确：{{value}}（放大需使用 ^ 前缀）', 'en-US': 'Invalid IIIF size: {{value}} (upscaling needs the ^ prefix)' },
  'iiif.too_large': { 'zh-CN': '请求的图像尺寸 {{value}} 超过上限（{{limit}} 像素）', 'en-US': 'The requested size {{value}} exceeds the limit of {{limit}} pixels' },
  'iiif.bad_rotation': { 'zh-CN': 'IIIF 旋转参数不正确：{{value}}', 'en-US': 'Invalid IIIF rotation: {{value}}' },
  'iiif.rotation_unsupported': { 'zh-CN': '仅支持 90 度倍数的旋转：{{value}}', 'en-US': 'Only rotations by multiples of 90 degrees are supported: {{value}}' },
  'iiif.bad_quality': { 'zh-CN': 'IIIF 质量或格式参数不正确：{{value}}', 'en-US': 'Invalid IIIF quality or format: {{value}}' },
  'iiif.format_unsupported': { 'zh-CN': '不支持的图像格式：{{value}}（可用 jpg、png、webp）', 'en-US': 'Unsupported image format: {{value}} (use jpg, png or webp)' },
} as const;
