import { jsonServer, onLoopback } from './loopback.js';

/**
 * The loopback stand-in for an external teaching library (tests only), speaking the HTTP adapter's protocol
 * (server/modules/outer/teaching-library.ts): `GET /libraries` and `POST /slides`, both behind a bearer token.
 * `broken` is a library whose binds it refuses, as a real one refuses when its storage is full.
 */
export async function startTeachingLibraryDouble(token: string) {
  const received: { library_id: string; slides: { slide_id: number; name: string; pathology_number: string | null; viewer_url: string }[] }[] = [];
  const { url, close } = await onLoopback(jsonServer((req, body, send) => {
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { message: 'unauthorised' });
    if (req.method === 'GET' && req.url === '/libraries') {
      return send(200, { data: [
        { id: 'gastro', name: 'Gastrointestinal pathology', parent_id: null },
        { id: 'gastro-stomach', name: 'Stomach', parent_id: 'gastro' },
        { id: 'broken', name: 'Broken library', parent_id: null },
      ] });
    }
    if (req.method === 'POST' && req.url === '/slides') {
      const sent = JSON.parse(body || '{}');
      if (sent.library_id === 'broken') return send(500, { message: 'storage full' });
      received.push(sent);
      return send(200, { data: sent.slides.map((s: { slide_id: number }) => ({ slide_id: s.slide_id, external_id: `T-${sent.library_id}-${s.slide_id}` })) });
    }
    send(404, {});
  }));
  return { url, received, close };
}
