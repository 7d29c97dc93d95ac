import type { FhirOutboundConfig } from './outbound-config.js';

/** How a post ended: delivered, worth trying again later, or refused for good (the Bundle itself is wrong for the receiver). */
export type PostOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'retry'; status: number; detail: string }
  | { kind: 'refused'; status: number; detail: string };

/** Statuses that say "not now" (timeouts, rate limits, a server or proxy in trouble), not "never". */
const TRANSIENT = (status: number) => status === 408 || status === 425 || status === 429 || status >= 500;

/**
 * Posts a transaction Bundle to the FHIR base (a FHIR server takes a transaction at its base URL), as
 * `application/fhir+json` UTF-8, with the bearer token when one is set. No answer within `timeoutMs`, a connection
 * that fails, or a transient status is `retry`; another 4xx is `refused`, with what the receiver's OperationOutcome
 * said. `signal` (the job's) aborting is not an outcome: it is thrown, so the runner hands the job back.
 */
export async function postBundle(cfg: FhirOutboundConfig & { baseUrl: string }, bundle: unknown, signal: AbortSignal): Promise<PostOutcome> {
  let res: Response;
  try {
    res = await fetch(cfg.baseUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/fhir+json; charset=utf-8',
        accept: 'application/fhir+json',
        ...(cfg.token ? { authorization: `Bearer ${cfg.token}` } : {}),
      },
      body: JSON.stringify(bundle),
      signal: AbortSignal.any([signal, AbortSignal.timeout(cfg.timeoutMs)]),
      redirect: 'error',
    });
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === 'TimeoutError' ? `no answer within ${cfg.timeoutMs} ms` : e.cause?.code ?? e.cause?.message ?? e.message;
    return { kind: 'retry', status: 0, detail: why };
  }
  const text = await res.text().catch(() => '');
  if (res.ok) return { kind: 'delivered', status: res.status };
  const detail = outcomeText(text) || res.statusText || `HTTP ${res.status}`;
  return TRANSIENT(res.status) ? { kind: 'retry', status: res.status, detail } : { kind: 'refused', status: res.status, detail };
}

/** What an OperationOutcome's issues say (diagnostics, else details.text), short enough to keep on a job row. */
export function outcomeText(body: string): string {
  try {
    const o = JSON.parse(body) as { resourceType?: string; issue?: { diagnostics?: string; details?: { text?: string } }[] };
    if (o.resourceType !== 'OperationOutcome' || !Array.isArray(o.issue)) return body.slice(0, 300);
    return o.issue.map((i) => i.diagnostics ?? i.details?.text ?? '').filter(Boolean).join('; ').slice(0, 300);
  } catch {
    return body.slice(0, 300);
  }
}
