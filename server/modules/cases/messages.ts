/** API messages of cases, in both languages. */
export const caseMessages = {
  'case.not_found_by_number': { 'zh-CN': '未找到病理号为 {{number}} 的病例', 'en-US': 'No case has the pathology number {{number}}' },
  'case.has_slides': { 'zh-CN': '病例 {{number}} 已绑定 {{count}} 张切片，请先移走切片再删除', 'en-US': 'Case {{number}} has {{count}} slide(s) bound; move them to another case before deleting it' },
  'case.not_found': { 'zh-CN': '病例不存在或不属于当前医院', 'en-US': 'The case does not exist or belongs to another hospital' },
} as const;
