/**
 * The `/pdf?file=` page opens only this site's API (a report's PDF, an attachment): an address from a link must
 * not make the app fetch, with the user's session, from another site or a path outside /api/. Answers the path
 * with its query, or null for anything else.
 */
const MAX_ADDRESS = 2048;

export function pdfAddress(file: string | null | undefined, origin: string): string | null {
  if (!file || file.length > MAX_ADDRESS || /[\\\0\s]/.test(file)) return null;
  let url: URL;
  try {
    url = new URL(file, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || !url.pathname.startsWith('/api/')) return null;
  // URL() already resolved dot segments; encoded ones would be resolved by the server's router again.
  if (/%2e|%2f|%5c/i.test(url.pathname)) return null;
  return url.pathname + url.search;
}
