/**
 * Which slide a viewer address opens, read from the address alone (before the router or the session exist), so
 * the boot can ask for the slide while the app is still starting. The viewer's own page reads its route params;
 * the two agree on every route that names a slide id (unit test). Null: not a viewer address, or one whose slide
 * the server has to find first (/kfb/path, /kfb/section/…, /kfb/case/… without ?slide=).
 */
export function slideOfViewerAddress(pathname: string, search: string): number | null {
  const query = new URLSearchParams(search);
  const id = (v: string | null | undefined) => {
    const n = Number(v);
    return Number.isSafeInteger(n) && n > 0 ? n : null;
  };
  if (/^\/kfb\/case\/[^/]+\/?$/.test(pathname)) return id(query.get('slide'));
  const short = /^\/kfb\/(?!case\/|path$|section\/)[^/]+\/([^/]+)\/?$/.exec(pathname);
  if (short) return id(short[1]);
  if (['/view', '/slide/view', '/outer/view', '/h5/view'].includes(pathname)) return id(query.get('id') ?? query.get('slide_id'));
  return null;
}

