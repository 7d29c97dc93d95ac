/** API messages of single sign-on and the messaging-app login, in both languages. */
export const ssoMessages = {
  'sso.not_configured': { 'zh-CN': '该医院未启用此登录方式', 'en-US': 'This sign-in method is not set up for the hospital' },
  'sso.code_invalid': { 'zh-CN': '登录凭证无效、已使用或已过期，请重新登录', 'en-US': 'The sign-in code is invalid, already used or expired; please sign in again' },
  'sso.rejected': { 'zh-CN': '身份提供方未通过此次登录', 'en-US': 'The identity provider did not confirm this sign-in' },
  'sso.provider_unreachable': { 'zh-CN': '无法连接身份提供方，请稍后再试或联系管理员', 'en-US': 'The identity provider cannot be reached; try again later or contact the administrator' },
  'sso.unknown_user': { 'zh-CN': '该账号尚未在本系统开通，请联系管理员', 'en-US': 'This account has not been set up in DSMS; contact the administrator' },
  'sso.claim_missing': { 'zh-CN': '身份提供方未提供可识别的用户名', 'en-US': 'The identity provider did not send a user name we can match' },
  'sso.required': { 'zh-CN': '启用时必须填写', 'en-US': 'required when switched on' },
  'sso.url_invalid': { 'zh-CN': '不是有效的网址', 'en-US': 'not a valid address' },
  'sso.url_insecure': { 'zh-CN': '必须使用 https（仅本机地址可用 http）', 'en-US': 'must use https (http only for this machine)' },
  'sso.role_unknown': { 'zh-CN': '角色不存在', 'en-US': 'no such role' },
  'sso.role_admin': { 'zh-CN': '不能自动授予管理员角色', 'en-US': 'the administrator role cannot be granted automatically' },
} as const;
