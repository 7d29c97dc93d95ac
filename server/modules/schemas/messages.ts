/** API messages of the rule sets (schemas/rules) and of the layered store's limits, in both languages. */
export const ruleMessages = {
  'rule.not_found': { 'zh-CN': '规则集 {{alias}} 不存在', 'en-US': 'Rule set {{alias}} does not exist' },
  'contract.not_found': { 'zh-CN': '资源 {{alias}} 不存在或不可写', 'en-US': 'Resource {{alias}} does not exist or is not writable' },
  'contract.invalid': { 'zh-CN': '字段扩展不符合规范：{{detail}}', 'en-US': 'The field extension is not valid: {{detail}}' },
  'rule.invalid': { 'zh-CN': '规则集不符合规范：{{detail}}', 'en-US': 'The rule set is not valid: {{detail}}' },
  'rule.too_costly': {
    'zh-CN': '本院配置的一条规则计算量超出上限（{{limit}}超过 {{max}}），已中止；请管理员检查或回滚本院的规则集与配置',
    'en-US': 'A rule configured for this hospital needed more work than allowed (more than {{max}} {{limit}}) and was stopped; an administrator can check or roll back the hospital’s rule sets and configuration',
  },
  // The limits of src/core/ruleBudget.ts, named in rule.too_costly.
  'rule.limit_operations': { 'zh-CN': '运算步数', 'en-US': 'operations' },
  'rule.limit_items': { 'zh-CN': '生成的列表长度', 'en-US': 'items in a list it builds' },
  'rule.limit_chars': { 'zh-CN': '生成的字符串长度', 'en-US': 'characters in a string it builds' },
  'schema.too_large': { 'zh-CN': '覆盖配置过大（最多 {{limit}} 字节）', 'en-US': 'The override is too large (at most {{limit}} bytes)' },
  'menu.not_found': { 'zh-CN': '菜单配置 {{alias}} 不存在', 'en-US': 'Menu configuration {{alias}} does not exist' },
  'menu.invalid': { 'zh-CN': '菜单调整不符合规范：{{detail}}', 'en-US': 'The menu changes are not valid: {{detail}}' },
  'config.invalid': { 'zh-CN': '配置文件被拒绝，未导入任何内容：{{detail}}', 'en-US': 'The configuration file is refused, nothing was imported: {{detail}}' },
  'config.problem': { 'zh-CN': '{{detail}}', 'en-US': '{{detail}}' },
} as const;
