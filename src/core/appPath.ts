/**
 * Where the browser may be sent after an outside sign-in: a path of this app only. Anything that could leave it
 * (`//host`, `/\host`, a scheme, control characters) falls back to `fallback`, so a crafted sign-in link cannot turn
 * the app into an open redirect.
 */
export function appPath(target: unknown, fallback = '/manage'): string {
  if (typeof target !== 'string' || target.length === 0 || target.length > 500) return fallback;
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(target)) return fallback;
  // A path the URL parser would resolve elsewhere (e.g. /%2F%2Fhost after decoding) is refused too.
  try {
    const resolved = new URL(target, 'http://app.invalid');
    if (resolved.origin !== 'http://app.invalid') return fallback;
  } catch {
    return fallback;
  }
  return target;
}
