import net from 'node:net';

/** What Fastify's `trustProxy` accepts, minus the function and hop-count forms (see parseTrustProxy). */
export type TrustProxy = boolean | string[];

/** proxy-addr's names for address ranges, which Fastify accepts in the list. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: whose X-Forwarded-For / -Proto / -Host to believe. Off by default: with nothing in front, any
 * client could otherwise choose the address written to the login and operation logs.
 * `true` trusts every hop (only behind a proxy that overwrites these headers); a comma-separated list trusts
 * those proxy addresses or CIDR ranges. A hop count is refused: Fastify 5 treats one as "trust nobody" (it cannot
 * tell a proxy from a client that sends enough hops), so accepting it would silently log the proxy's address.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) throw new Error(`TRUST_PROXY: a hop count ("${v}") cannot tell a proxy from a client; list the proxy addresses instead`);
  const list = v.split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of list) {
    if (RANGE_NAMES.has(entry)) continue;
    const [address, bits, extra] = entry.split('/');
    const family = net.isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const badBits = bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > maxBits);
    if (!family || badBits || extra !== undefined) {
      throw new Error(`TRUST_PROXY must be true, false or a comma-separated list of addresses / CIDR ranges; "${entry}" is none of these`);
    }
  }
  return list;
}

/**
 * PUBLIC_URL: the address users reach the app at, for the absolute URLs some answers must hold (IIIF info.json
 * `id`). Taken from configuration, never from the request's Host or X-Forwarded-Host, which a client chooses.
 */
export function parsePublicUrl(value: string | undefined, port: number): string {
  const raw = (value ?? '').trim() || `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute http(s) address, not "${raw}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new Error(`PUBLIC_URL must be an http(s) address without query, fragment or credentials, not "${raw}"`);
  }
  return url.href.replace(/\/+$/, '');
}

/** CSP_FRAME_SRC: origins (besides this site) the InnerIframe page may embed, separated by commas or spaces. */
export function parseFrameSources(value: string | undefined): string[] {
  return parseOrigins('CSP_FRAME_SRC', value, 'https://pacs.example.org');
}

/** Which other sites' pages may read the image routes' answers (IIIF_CORS_ORIGINS): any (`*`), these origins, or none. */
export type CorsOrigins = '*' | readonly string[];

/**
 * IIIF_CORS_ORIGINS: `*` (the default: IIIF Image API level 2 asks for CORS), origins separated by commas or spaces,
 * or `none`. `*` answers without credentials, so a page elsewhere reads images only with a bearer token of its own,
 * never through the image cookie; a listed origin is also let send the cookie (browsers send it only within the site).
 */
export function parseCorsOrigins(value: string | undefined): CorsOrigins {
  const v = (value ?? '').trim();
  if (v === '' || v === '*') return '*';
  if (v === 'none') return [];
  return parseOrigins('IIIF_CORS_ORIGINS', v, 'https://viewer.example.org (or * or none)');
}

/** A list of origins, separated by commas or spaces: scheme, host and port, nothing after. */
function parseOrigins(name: string, value: string | undefined, example: string): string[] {
  const list = (value ?? '').split(/[\s,]+/).filter(Boolean);
  return list.map((entry) => {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch { /* reported below */ }
    // An origin only: scheme, host and port, nothing after (in frame-src a path would allow that folder only).
    if (!url || !/^https?:\/\/[^/?#@\s]+\/?$/i.test(entry)) {
      throw new Error(`${name} must list origins such as ${example}, not "${entry}"`);
    }
    return url.origin;
  });
}
