/**
 * An <img> cannot send the Authorization header: our own API images (thumbnails) carry the session
 * token in the query, which the thumbnail route accepts. Other addresses are left alone so the token
 * never leaves for another site.
 */
export function withToken(src: string, token: string | null | undefined): string {
  if (!token || !src.startsWith('/api/')) return src;
  return `${src}${src.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}
