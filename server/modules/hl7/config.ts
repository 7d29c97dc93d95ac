/**
 * HL7 v2 with the hospital's HIS over MLLP (issue 30): the listener for its orders and registrations, the peer sent
 * results go to, and their limits. Read once by config.ts's loadConfig; the listener runs in the primary process only
 * (main.ts), the results are sent by the job queue (result-job.ts).
 */
export interface Hl7Config {
  /** Where the listener takes the HIS's messages (HL7_MLLP_PORT; unset: no listener). */
  listenPort?: number;
  /** HL7_MLLP_HOST, default 0.0.0.0. */
  listenHost: string;
  /** The hospital (its code) a message is filed under when its MSH-4 sending facility names none of ours (HL7_HOSPITAL). */
  hospitalCode?: string;
  /** The HIS's MLLP listener sent results go to (HL7_HIS_HOST, HL7_HIS_PORT); required with REPORT_OUTBOUND=hl7. */
  hisHost?: string;
  hisPort?: number;
  /** The largest message the listener takes, in bytes (HL7_MAX_MESSAGE_BYTES, default 1 MiB): past it the connection is closed. */
  maxMessageBytes: number;
  /** Connections the listener holds at once (HL7_MAX_CONNECTIONS, default 20): one more is closed at once. */
  maxConnections: number;
  /** A connection silent this long is closed (HL7_IDLE_TIMEOUT_MS, default 60 s). */
  idleTimeoutMs: number;
  /** How long a sent result waits for its ACK before the attempt counts as failed (HL7_ACK_TIMEOUT_MS, default 10 s). */
  ackTimeoutMs: number;
  /** Attempts a result gets before it fails for good (HL7_MAX_ATTEMPTS, default 8); between them the job queue's back-off. */
  maxAttempts: number;
}

export const HL7_DEFAULTS = { listenHost: '0.0.0.0', maxMessageBytes: 1024 * 1024, maxConnections: 20, idleTimeoutMs: 60_000, ackTimeoutMs: 10_000, maxAttempts: 8 } as const;

/** The HL7_* settings; `hl7Results` (REPORT_OUTBOUND=hl7) without the HIS's address stops the start. */
export function parseHl7Config(env: NodeJS.ProcessEnv, hl7Results: boolean): Hl7Config {
  const hisHost = env.HL7_HIS_HOST?.trim() || undefined;
  const hisPort = optionalPort('HL7_HIS_PORT', env.HL7_HIS_PORT);
  if (hl7Results && (!hisHost || !hisPort)) throw new Error('REPORT_OUTBOUND=hl7 needs HL7_HIS_HOST and HL7_HIS_PORT (the HIS\'s MLLP listener)');
  return {
    listenPort: optionalPort('HL7_MLLP_PORT', env.HL7_MLLP_PORT),
    listenHost: env.HL7_MLLP_HOST?.trim() || HL7_DEFAULTS.listenHost,
    hospitalCode: env.HL7_HOSPITAL?.trim() || undefined,
    hisHost,
    hisPort,
    maxMessageBytes: whole('HL7_MAX_MESSAGE_BYTES', env.HL7_MAX_MESSAGE_BYTES, HL7_DEFAULTS.maxMessageBytes),
    maxConnections: whole('HL7_MAX_CONNECTIONS', env.HL7_MAX_CONNECTIONS, HL7_DEFAULTS.maxConnections),
    idleTimeoutMs: whole('HL7_IDLE_TIMEOUT_MS', env.HL7_IDLE_TIMEOUT_MS, HL7_DEFAULTS.idleTimeoutMs),
    ackTimeoutMs: whole('HL7_ACK_TIMEOUT_MS', env.HL7_ACK_TIMEOUT_MS, HL7_DEFAULTS.ackTimeoutMs),
    maxAttempts: whole('HL7_MAX_ATTEMPTS', env.HL7_MAX_ATTEMPTS, HL7_DEFAULTS.maxAttempts),
  };
}

function optionalPort(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number (0–65535), not "${value}"`);
  return n;
}

function whole(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number, not "${value}"`);
  return n;
}
