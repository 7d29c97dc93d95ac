/** API messages of slide annotations, in both languages. */
export const annotationMessages = {
  'annotation.not_found': { 'zh-CN': '标注不存在', 'en-US': 'Annotation not found' },
  'annotation.too_small': { 'zh-CN': '标注框需大于最小尺寸（{{min}} 像素）', 'en-US': 'The annotation box must be larger than the minimum size ({{min}} pixels)' },
  'annotation.bad_points': { 'zh-CN': '标注类型 {{type}} 的顶点数不正确（{{count}} 个）', 'en-US': 'Wrong number of vertices for a {{type}} annotation ({{count}})' },
  'annotation.too_many_vertices': { 'zh-CN': '标注顶点过多（{{count}} 个，上限 {{max}}）', 'en-US': 'Too many vertices ({{count}}; at most {{max}})' },
  'annotation.outside_slide': { 'zh-CN': '标注超出切片范围', 'en-US': 'The annotation lies outside the slide' },
  'annotation.not_yours': { 'zh-CN': '只有标注的创建者或管理员可以修改或删除该标注', 'en-US': 'Only the author of an annotation or an administrator may change or delete it' },
  'annotation.changed': { 'zh-CN': '该标注已被他人修改，请刷新后重试', 'en-US': 'Someone else changed this annotation; reload and try again' },
  'annotation.too_many_features': { 'zh-CN': '一次最多导入 {{max}} 个标注', 'en-US': 'At most {{max}} annotations can be imported at once' },
} as const;
