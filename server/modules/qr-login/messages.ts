/** API messages of the QR login, in both languages. */
export const qrLoginMessages = {
  'qr.not_found': { 'zh-CN': '二维码无效，请刷新后重新扫描', 'en-US': 'This QR code is not valid; refresh it and scan again' },
  'qr.expired': { 'zh-CN': '二维码已过期，请刷新后重新扫描', 'en-US': 'This QR code has expired; refresh it and scan again' },
  'qr.used': { 'zh-CN': '二维码已被使用，请刷新后重新扫描', 'en-US': 'This QR code has already been used; refresh it and scan again' },
  'qr.declined': { 'zh-CN': '登录请求已在手机上被拒绝', 'en-US': 'The sign-in was declined on the phone' },
} as const;
