import type { HisAdapter } from './adapter.js';
import { demoHisAdapter } from './demo-adapter.js';

/** Adapters by the name HIS_ADAPTER gives; a hospital's own adapter is added here. 'none': registration types everything. */
const ADAPTERS: Record<string, HisAdapter | null> = { demo: demoHisAdapter, none: null };

export function hisAdapter(name: string | undefined): HisAdapter | null {
  const key = name?.trim() || 'demo';
  if (!Object.hasOwn(ADAPTERS, key)) throw new Error(`HIS_ADAPTER=${key}: no such adapter (known: ${Object.keys(ADAPTERS).join(', ')})`);
  return ADAPTERS[key];
}
export type { HisAdapter, HisPatient, HisQuery } from './adapter.js';
