/** API messages of hardware keys (WebAuthn), in both languages. */
export const webauthnMessages = {
  'webauthn.challenge_invalid': { 'zh-CN': '安全密钥请求已过期或已使用，请重试', 'en-US': 'The security key request has expired or was already used; try again' },
  'webauthn.response_invalid': { 'zh-CN': '安全密钥的应答格式不正确', 'en-US': 'The security key’s answer is malformed' },
  'webauthn.registration_failed': { 'zh-CN': '无法验证此安全密钥，未添加', 'en-US': 'This security key could not be verified and was not added' },
  'webauthn.already_registered': { 'zh-CN': '此安全密钥已添加过', 'en-US': 'This security key is already registered' },
  'webauthn.too_many': { 'zh-CN': '每个账号最多添加 {{max}} 个安全密钥', 'en-US': 'An account can hold at most {{max}} security keys' },
  'webauthn.name_invalid': { 'zh-CN': '请填写密钥名称（不超过 {{max}} 个字符）', 'en-US': 'Give the key a name of at most {{max}} characters' },
  'webauthn.not_found': { 'zh-CN': '安全密钥不存在', 'en-US': 'No such security key' },
  'webauthn.unknown_key': { 'zh-CN': '此安全密钥未在本系统登记', 'en-US': 'This security key is not registered in DSMS' },
  'webauthn.failed': { 'zh-CN': '安全密钥验证失败', 'en-US': 'The security key could not be verified' },
  'webauthn.role_not_allowed': { 'zh-CN': '您的角色未获准使用安全密钥登录，请联系管理员', 'en-US': 'Your role may not sign in with a security key; ask an administrator' },
  'webauthn.rp_is_ip': { 'zh-CN': '安全密钥需要通过域名访问本系统（不能是 IP 地址），请管理员设置 PUBLIC_URL', 'en-US': 'Security keys need the app reached by a host name, not an IP address; an administrator sets PUBLIC_URL' },
} as const;
