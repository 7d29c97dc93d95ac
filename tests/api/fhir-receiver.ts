import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A FHIR server's transaction endpoint, stood in for on loopback (tests only; no FHIR server installs from npm): it
 * takes a transaction Bundle at its base as a FHIR R4 server does (http.html#transaction), honouring what makes a
 * repeated post harmless: `ifNoneExist` (create only if no resource has that identifier) and conditional update
 * (`PUT Type?identifier=system|value`), and resolving the entries' `urn:uuid` references to the stored resources'
 * ids (one left unresolved is refused, 400). The bearer token `fhir-secret` is required.
 *
 * `script` says how the next posts are answered, one word each, then `ok`: `503` (refused, nothing stored),
 * `store-then-503` (stored, but the answer says 503, as when a proxy times out after the server committed), `400`
 * (refused with an OperationOutcome), `hang` (never answers).
 */
export type Step = 'ok' | '503' | 'store-then-503' | '400' | 'hang';
type Resource = { resourceType: string; id?: string; identifier?: { system?: string; value?: string }[] } & Record<string, unknown>;
interface Entry { fullUrl?: string; resource?: Resource; request?: { method?: string; url?: string; ifNoneExist?: string } }

export interface Received { auth?: string; contentType?: string; raw: Buffer; body: { resourceType?: string; type?: string; entry?: Entry[] } }

export interface FhirReceiver {
  url: string;
  script: Step[];
  requests: Received[];
  /** What it holds, by type. */
  store: Map<string, Resource[]>;
  of(type: string): Resource[];
  close(): Promise<void>;
}

export async function startFhirReceiver(): Promise<FhirReceiver> {
  const store = new Map<string, Resource[]>();
  const requests: Received[] = [];
  const script: Step[] = [];
  let next = 1;
  const of = (type: string) => store.get(type) ?? [];

  /** The resource of `list` a token search (`identifier=system|value`, percent-encoded) finds. */
  const byIdentifier = (list: Resource[], query: string) => {
    const token = new URLSearchParams(query).get('identifier') ?? '';
    const bar = token.indexOf('|');
    const [system, value] = bar < 0 ? [undefined, token] : [token.slice(0, bar), token.slice(bar + 1)];
    return list.find((r) => r.identifier?.some((i) => i.value === value && (system === undefined || i.system === system)));
  };

  /** The transaction, all or nothing: answers the response entries, or throws a status and a message. */
  const transact = (entries: Entry[]) => {
    const work = new Map<string, Resource[]>([...store].map(([k, v]) => [k, v.map((r) => structuredClone(r))]));
    const find = (type: string, q: string) => byIdentifier(work.get(type) ?? [], q);
    const ids = new Map<string, string>();
    const placed: { resource: Resource; status: string }[] = [];
    for (const e of entries) {
      const { resource, request } = e;
      if (!resource || !request?.url || !e.fullUrl) throw [400, 'entry without resource, request or fullUrl'];
      const type = resource.resourceType;
      const list = work.get(type) ?? [];
      work.set(type, list);
      if (request.method === 'POST' && request.url === type) {
        const existing = request.ifNoneExist ? find(type, request.ifNoneExist) : undefined;
        if (existing) {
          ids.set(e.fullUrl, `${type}/${existing.id}`);
          placed.push({ resource: existing, status: '200 OK' });
          continue;
        }
        const stored = { ...structuredClone(resource), id: String(next++) };
        list.push(stored);
        ids.set(e.fullUrl, `${type}/${stored.id}`);
        placed.push({ resource: stored, status: '201 Created' });
      } else if (request.method === 'PUT' && request.url.startsWith(`${type}?`)) {
        const existing = find(type, request.url.slice(type.length + 1));
        const stored = { ...structuredClone(resource), id: existing?.id ?? String(next++) };
        if (existing) list.splice(list.indexOf(existing), 1, stored);
        else list.push(stored);
        ids.set(e.fullUrl, `${type}/${stored.id}`);
        placed.push({ resource: stored, status: existing ? '200 OK' : '201 Created' });
      } else {
        throw [400, `unsupported request ${request.method} ${request.url}`];
      }
    }
    const resolve = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(resolve);
      if (!value || typeof value !== 'object') return value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => {
        if (k !== 'reference' || typeof v !== 'string' || !v.startsWith('urn:uuid:')) return [k, resolve(v)];
        const to = ids.get(v);
        if (!to) throw [400, `reference ${v} is no entry of the Bundle`];
        return [k, to];
      }));
    };
    for (const p of placed) Object.assign(p.resource, resolve(p.resource));
    for (const [k, v] of work) store.set(k, v);
    return placed.map((p) => ({ response: { status: p.status, location: `${p.resource.resourceType}/${p.resource.id}/_history/1` } }));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const send = (status: number, body: unknown) => { res.writeHead(status, { 'content-type': 'application/fhir+json; charset=utf-8' }); res.end(JSON.stringify(body)); };
      const outcome = (status: number, diagnostics: string) => send(status, { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'processing', diagnostics }] });
      let body: Received['body'];
      try {
        body = JSON.parse(raw.toString('utf8')) as Received['body'];
      } catch {
        return outcome(400, 'not JSON');
      }
      requests.push({ auth: req.headers.authorization, contentType: req.headers['content-type'], raw, body });
      if (req.method !== 'POST' || req.url !== '/fhir') return outcome(404, `no route ${req.method} ${req.url}`);
      if (req.headers.authorization !== 'Bearer fhir-secret') return outcome(401, 'unauthorised');
      const step = script.shift() ?? 'ok';
      if (step === 'hang') return;
      if (step === '503') return outcome(503, 'busy, try later');
      if (step === '400') return outcome(400, 'Specimen.type: code not in the receiving value set');
      if (body.resourceType !== 'Bundle' || body.type !== 'transaction') return outcome(400, 'not a transaction Bundle');
      try {
        const entry = transact(body.entry ?? []);
        if (step === 'store-then-503') return outcome(503, 'gateway timeout after commit');
        return send(200, { resourceType: 'Bundle', type: 'transaction-response', entry });
      } catch (e) {
        const [status, message] = Array.isArray(e) ? e as [number, string] : [500, String(e)];
        return outcome(status, message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/fhir`,
    script, requests, store, of,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
