/** API messages of the rule sets (schemas/rules) and of the layered store's limits, in both languages. */
export const ruleMessages = {
  'rule.not_found': { 'zh-CN': '规则集 {{alias}} 不存在', 'en-US': 'Rule set {{alias}} does not exist' },
  'contract.not_found': { 'zh-CN': '资源 {{alias}} 不存在或不可写', 'en-US': 'Resource {{alias}} does not exist or is not writable' },
  'contract.invalid': { 'zh-CN': '字段扩展不符合规范：{{detail}}', 'en-US': 'The field extension is not valid: {{detail}}' },
  'rule.invalid': { 'zh-CN': '规则集不符合规范：{{detail}}', 'en-US': 'The rule set is not valid: {{detail}}' },
  'schema.too_large': { 'zh-CN': '覆盖配置过大（最多 {{limit}} 字节）', 'en-US': 'The override is too large (at most {{limit}} bytes)' },
  'config.invalid': { 'zh-CN': '配置文件被拒绝，未导入任何内容：{{detail}}', 'en-US': 'The configuration file is refused, nothing was imported: {{detail}}' },
  'config.problem': { 'zh-CN': '{{detail}}', 'en-US': '{{detail}}' },
} as const;
