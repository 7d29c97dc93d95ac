/**
 * Where a sent report goes (REPORT_OUTBOUND) and, for `fhir`, the receiver it is posted to: read once by
 * config.ts's loadConfig, handed to the diagnosis module (the send) and to the job type that posts (outbound-job.ts).
 */
export const OUTBOUND_KINDS = ['none', 'outbox', 'fhir', 'hl7'] as const;
export type OutboundKind = (typeof OUTBOUND_KINDS)[number];

export interface FhirOutboundConfig {
  /** The receiver's FHIR base (FHIR_BASE_URL): the transaction Bundle is posted to it. Required with REPORT_OUTBOUND=fhir. */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer …` when set (FHIR_TOKEN). */
  token?: string;
  /** How long one post may take before it counts as failed and is retried (FHIR_TIMEOUT_MS). */
  timeoutMs: number;
  /** Attempts before a delivery fails for good (FHIR_MAX_ATTEMPTS); between them the job queue's back-off. */
  maxAttempts: number;
  /**
   * Where the identifier systems are rooted (FHIR_SYSTEM_BASE; unset: `PUBLIC_URL/fhir/sid`). A receiver links our
   * patients, specimens and reports by these, so an installation that moves its address keeps them with this setting.
   */
  systemBase?: string;
}

export const FHIR_DEFAULTS = { timeoutMs: 10_000, maxAttempts: 8 } as const;

export function parseOutboundKind(value: string | undefined): OutboundKind {
  const kind = value?.trim() || 'none';
  if (!(OUTBOUND_KINDS as readonly string[]).includes(kind)) throw new Error(`REPORT_OUTBOUND must be one of ${OUTBOUND_KINDS.join(', ')}, not "${value}"`);
  return kind as OutboundKind;
}

/** FHIR_BASE_URL, FHIR_TOKEN, FHIR_TIMEOUT_MS, FHIR_MAX_ATTEMPTS, FHIR_SYSTEM_BASE; `fhir` without a base URL stops the start. */
export function parseFhirOutbound(env: NodeJS.ProcessEnv, kind: OutboundKind): FhirOutboundConfig {
  const baseUrl = env.FHIR_BASE_URL?.trim() || undefined;
  if (kind === 'fhir' && !baseUrl) throw new Error('REPORT_OUTBOUND=fhir needs FHIR_BASE_URL (the receiver\'s FHIR base, e.g. https://fhir.example.org/r4)');
  if (baseUrl) httpUrl('FHIR_BASE_URL', baseUrl);
  const systemBase = env.FHIR_SYSTEM_BASE?.trim() || undefined;
  if (systemBase) httpUrl('FHIR_SYSTEM_BASE', systemBase);
  return {
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    token: env.FHIR_TOKEN || undefined,
    timeoutMs: whole('FHIR_TIMEOUT_MS', env.FHIR_TIMEOUT_MS, FHIR_DEFAULTS.timeoutMs),
    maxAttempts: whole('FHIR_MAX_ATTEMPTS', env.FHIR_MAX_ATTEMPTS, FHIR_DEFAULTS.maxAttempts),
    systemBase: systemBase?.replace(/\/+$/, ''),
  };
}

/** The root of the identifier systems: the setting, else under the public address. */
export const systemBaseOf = (fhir: Pick<FhirOutboundConfig, 'systemBase'> | undefined, publicUrl: string): string =>
  fhir?.systemBase ?? `${publicUrl.replace(/\/+$/, '')}/fhir/sid`;

function httpUrl(name: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an http(s) URL, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL, not "${value}"`);
}

function whole(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number, not "${value}"`);
  return n;
}
