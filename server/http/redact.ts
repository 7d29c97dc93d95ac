/** A query parameter named `token` or ending in `token` (`access_token`, `sso_token`) and its value. */
const TOKEN_PARAM = /([?&;][^=&#\s?;]*token=)[^&#\s"';]*/gi;

/**
 * The text with every token in a query string replaced: a session token an old client still puts in a URL
 * never reaches the request log, an error log or the operation log.
 */
export function redactTokens(text: string): string {
  return text.replace(TOKEN_PARAM, '$1[redacted]');
}
