/** API messages of favourites (collection categories and collected slides), in both languages. */
export const collectionMessages = {
  'collection.slide_not_found': { 'zh-CN': '切片不存在，或不属于您所在的医院', 'en-US': 'The slide does not exist or belongs to a hospital you do not work in' },
  'collection.already_collected': { 'zh-CN': '该切片已在您的收藏中（{{category}}）', 'en-US': 'This slide is already in your collection ({{category}})' },
  'collection.category_not_found': { 'zh-CN': '收藏分类不存在', 'en-US': 'The collection category does not exist' },
  'collection.category_exists': { 'zh-CN': '已有名为“{{name}}”的收藏分类', 'en-US': 'You already have a collection category named "{{name}}"' },
  'collection.already_collected_uncategorised': { 'zh-CN': '该切片已在您的收藏中（未分类）', 'en-US': 'This slide is already in your collection (uncategorised)' },
  'collection.field.slide': { 'zh-CN': '切片', 'en-US': 'Slide' },
  'collection.field.name': { 'zh-CN': '分类名称', 'en-US': 'Category name' },
  'collection.field.remark': { 'zh-CN': '备注', 'en-US': 'Remark' },
} as const;
