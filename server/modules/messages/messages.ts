/** API messages of messages and notices, and the wording of the system messages the workflow raises. */
export const messageMessages = {
  'message.not_yours': { 'zh-CN': '只能处理发给自己或自己发出的消息', 'en-US': 'You can only handle messages sent to you or by you' },
  'message.recipient_unknown': { 'zh-CN': '收件人不存在或不在当前医院：{{ids}}', 'en-US': 'Unknown recipients, or not in your current hospital: {{ids}}' },
  'message.empty': { 'zh-CN': '消息标题和内容不能都为空', 'en-US': 'A message needs a title or some content' },
  'message.no_recipients': { 'zh-CN': '没有符合条件的收件人', 'en-US': 'Nobody matches the recipients chosen' },
  'message.not_clinical': { 'zh-CN': '所选消息中有不需要临床回复的消息', 'en-US': 'Some of the chosen messages do not ask for a clinical answer' },
  'message.clinical_order': { 'zh-CN': '临床状态只能向前推进（未回复 → 已收到 → 已处理）', 'en-US': 'A clinical answer only moves forward (none → received → handled)' },
  // System messages, worded in the reader's language when read.
  'message.system.case_assigned.title': { 'zh-CN': '新分配病例：{{number}}', 'en-US': 'Case assigned to you: {{number}}' },
  'message.system.case_assigned.content': { 'zh-CN': '{{by}} 将病例 {{number}}（{{patient}}）分配给您进行初诊。', 'en-US': '{{by}} assigned case {{number}} ({{patient}}) to you for first diagnosis.' },
  'message.system.report_returned.title': { 'zh-CN': '报告被退回：{{number}}', 'en-US': 'Report returned to you: {{number}}' },
  'message.system.report_returned.content': { 'zh-CN': '{{by}} 退回了病例 {{number}} 的报告，原因：{{reason}}', 'en-US': '{{by}} returned the report of case {{number}} to you. Reason: {{reason}}' },
  'message.system.share_received.title': { 'zh-CN': '{{by}} 向您分享了切片 {{slide}}', 'en-US': '{{by}} shared slide {{slide}} with you' },
  'message.system.share_received.content': { 'zh-CN': '{{by}} 向您分享了切片 {{slide}}，链接有效期至 {{until}}（UTC）。点击“打开”查看。', 'en-US': '{{by}} shared slide {{slide}} with you. The link is valid until {{until}} (UTC). Choose Open to view it.' },
} as const;
