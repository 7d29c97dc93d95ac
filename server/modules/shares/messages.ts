/** API messages of slide share links, in both languages. */
export const shareMessages = {
  'share.not_found': { 'zh-CN': '分享链接不存在', 'en-US': 'Share link not found' },
  'share.expired': { 'zh-CN': '分享链接已过期', 'en-US': 'This share link has expired' },
  'share.revoked': { 'zh-CN': '分享链接已被撤销', 'en-US': 'This share link has been revoked' },
  'share.login_required': { 'zh-CN': '该分享需要登录后查看', 'en-US': 'Sign in to view this share' },
  'share.not_yours': { 'zh-CN': '只有分享的创建者或管理员可以撤销', 'en-US': 'Only the creator of a share or an administrator may revoke it' },
  'share.flag_not_yours': { 'zh-CN': '分享链接不能包含“{{flag}}”：您没有 {{permission}} 权限', 'en-US': 'The link cannot show {{flag}}: you do not hold {{permission}}' },
  'share.flag.diagnosis': { 'zh-CN': '诊断信息', 'en-US': 'the diagnosis information' },
  'share.flag.remark': { 'zh-CN': '切片备注', 'en-US': 'the slide remark' },
  'share.flag.labels': { 'zh-CN': '病例标签', 'en-US': 'the case labels' },
  'share.flag.annotation': { 'zh-CN': '切片标注', 'en-US': 'the slide annotations' },
  'share.recipient_unknown': { 'zh-CN': '接收人不存在、已停用或不属于该切片所在医院', 'en-US': 'The recipient does not exist, is disabled, or is not in the slide’s hospital' },
} as const;
