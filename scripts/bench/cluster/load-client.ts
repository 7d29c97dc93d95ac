/**
 * One kind of load for scripts/bench/cluster-load.ts, in a process of its own (the client is never in the servers'
 * processes): autocannon with `connections` connections for `seconds` against `base`, each request made by `kind`.
 * Prints one JSON line: requests, throughput, p50/p99 latency, non-2xx answers and socket errors.
 *
 *   node --import tsx scripts/bench/cluster/load-client.ts <file holding the LoadSpec as JSON>
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';

export interface LoadSpec {
  kind: 'lists' | 'case' | 'tiles' | 'uploads';
  base: string;
  token: string;
  connections: number;
  seconds: number;
  caseIds: number[];
  /** Tile paths to pick from (`/api/tiles/<id>_files/<level>/<c>_<r>.jpeg`). */
  tiles: string[];
}

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;

/** A new one-chunk file each time (64 KiB of random bytes): every request is an upload the server finishes. */
function uploadBody(): { body: Buffer; type: string } {
  const bytes = randomBytes(64 * 1024);
  const sum = md5(bytes);
  const boundary = `----dsmsload${randomBytes(8).toString('hex')}`;
  const fields = { file_name: `load-${sum.slice(0, 12)}.bin`, num: 1, total_num: 1, md5: sum, total_md5: sum };
  const head = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('')
    + `--${boundary}\r\nContent-Disposition: form-data; name="blob"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

/** What autocannon hands setupRequest and takes back. */
interface AutocannonRequest { path?: string; body?: Buffer; headers?: Record<string, string> }

function requestOf(spec: LoadSpec) {
  switch (spec.kind) {
    case 'lists': return { method: 'GET', setupRequest: (r: AutocannonRequest) => ({ ...r, path: `/api/pathology/lists?page=${1 + Math.floor(Math.random() * 3)}&limit=20` }) };
    case 'case': return { method: 'GET', setupRequest: (r: AutocannonRequest) => ({ ...r, path: `/api/pathology/item/${pick(spec.caseIds)}` }) };
    case 'tiles': return { method: 'GET', setupRequest: (r: AutocannonRequest) => ({ ...r, path: pick(spec.tiles) }) };
    case 'uploads': return {
      method: 'POST', path: '/api/upload/large',
      setupRequest: (r: AutocannonRequest) => {
        const { body, type } = uploadBody();
        return { ...r, body, headers: { ...r.headers, 'content-type': type } };
      },
    };
  }
}

const spec = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LoadSpec;
const result = await autocannon({
  url: spec.base, connections: spec.connections, duration: spec.seconds, timeout: 30,
  headers: { authorization: `Bearer ${spec.token}` },
  requests: [{ path: '/', ...requestOf(spec) }],
});
console.log(JSON.stringify({
  kind: spec.kind, requests: result.requests.total, perSecond: result.requests.average,
  p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors + result.timeouts,
  // Which answers were not 2xx (429: a rate limit; 502/504: nginx lost a node), so a non-zero count says why.
  statuses: Object.fromEntries(Object.entries((result.statusCodeStats ?? {}) as Record<string, { count: number }>).filter(([code]) => !code.startsWith('2')).map(([code, v]) => [code, v.count])),
}));
