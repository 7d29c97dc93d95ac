import type { HisAdapter } from './adapter.js';
import { demoHisAdapter } from './demo-adapter.js';
import { httpHisAdapter } from './http-adapter.js';
import { hl7HisAdapter } from './hl7-adapter.js';
import type { Db } from '../../db/connect.js';

/** Which HIS registration asks (HIS_ADAPTER, and for `http` HIS_URL, HIS_TOKEN, HIS_TIMEOUT_MS). */
export interface HisConfig {
  adapter: string;
  url?: string;
  token?: string;
  timeoutMs?: number;
}

export function parseHisConfig(env: NodeJS.ProcessEnv): HisConfig {
  const timeout = env.HIS_TIMEOUT_MS ? Number(env.HIS_TIMEOUT_MS) : undefined;
  if (timeout !== undefined && (!Number.isInteger(timeout) || timeout < 1)) throw new Error(`HIS_TIMEOUT_MS must be a positive whole number, not "${env.HIS_TIMEOUT_MS}"`);
  return { adapter: env.HIS_ADAPTER?.trim() || 'demo', url: env.HIS_URL || undefined, token: env.HIS_TOKEN || undefined, timeoutMs: timeout };
}

/** Adapters by the name HIS_ADAPTER gives; a hospital's own adapter is added here. 'none': registration types everything. */
const ADAPTERS: Record<string, (c: HisConfig, db: Db) => HisAdapter | null> = {
  demo: () => demoHisAdapter,
  http: (c) => {
    if (!c.url) throw new Error('HIS_ADAPTER=http needs HIS_URL');
    return httpHisAdapter({ url: c.url, token: c.token, timeoutMs: c.timeoutMs });
  },
  // The patients the HIS sent over HL7 (ADT), kept in this database (modules/hl7).
  hl7: (_c, db) => hl7HisAdapter(db),
  none: () => null,
};

export function hisAdapter(config: HisConfig, db: Db): HisAdapter | null {
  if (!Object.hasOwn(ADAPTERS, config.adapter)) throw new Error(`HIS_ADAPTER=${config.adapter}: no such adapter (known: ${Object.keys(ADAPTERS).join(', ')})`);
  return ADAPTERS[config.adapter](config, db);
}
export { HisUnavailable } from './http-adapter.js';
export type { HisAdapter, HisPatient, HisQuery } from './adapter.js';
