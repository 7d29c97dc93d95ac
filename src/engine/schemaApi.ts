import { api, unwrap } from '../api/client';
import type { ColumnPref } from '../core/columnPrefs';
import type { Label, LoadedSchema, PageSchema } from '../core/pageSchema';

/** Calls of the schema service (server/modules/schemas). */
export interface EnumOption { value: unknown; label: Label; color?: string }
export type Enums = Record<string, EnumOption[]>;
export interface ResourceSummary { name: string; route: string; optionLabel?: string; optionValue?: string; permissions?: Record<string, string> }
export interface SchemaVersion { version: number; created_at: string; created_by: string | number | null; override: Record<string, unknown> | null }

const enc = encodeURIComponent;
const schemaCache = new Map<string, Promise<LoadedSchema>>();

/** GET /api/schemas/{alias}, cached for the session; a 404 rejects with status 404 (the caller falls back). */
export function loadSchema(alias: string): Promise<LoadedSchema> {
  let p = schemaCache.get(alias);
  if (!p) {
    p = unwrap<LoadedSchema>(api.get(`/schemas/${enc(alias)}`, { silent: true }));
    p.catch(() => schemaCache.delete(alias));
    schemaCache.set(alias, p);
  }
  return p;
}
/** After the schema editor saves or rolls back, the next visit reads the new version. */
export const forgetSchema = (alias: string) => schemaCache.delete(alias);

let enumsPromise: Promise<Enums> | null = null;
export function loadEnums(): Promise<Enums> {
  if (!enumsPromise) {
    enumsPromise = unwrap<Enums>(api.get('/enums'));
    enumsPromise.catch(() => { enumsPromise = null; });
  }
  return enumsPromise;
}

let resourcesPromise: Promise<ResourceSummary[]> | null = null;
export function loadResources(): Promise<ResourceSummary[]> {
  if (!resourcesPromise) {
    resourcesPromise = unwrap<ResourceSummary[]>(api.get('/resources'));
    resourcesPromise.catch(() => { resourcesPromise = null; });
  }
  return resourcesPromise;
}

export const fetchColumnPrefs = (alias: string) =>
  unwrap<{ columns: ColumnPref[] }>(api.get(`/schemas/${enc(alias)}/columns`, { silent: true })).then((d) => d?.columns ?? []);
export const saveColumnPrefs = (alias: string, columns: ColumnPref[]) =>
  api.put(`/schemas/${enc(alias)}/columns`, { columns }, { allowMultiple: true, silent: true });

export const fetchVersions = (alias: string) => unwrap<SchemaVersion[]>(api.get(`/schemas/${enc(alias)}/versions`));
export const fetchBase = (alias: string) => unwrap<PageSchema | { schema: PageSchema }>(api.get(`/schemas/${enc(alias)}/base`));
export const saveOverride = (alias: string, override: Record<string, unknown>) =>
  unwrap<LoadedSchema>(api.put(`/schemas/${enc(alias)}`, { override }, { silent: true }));
export const rollbackSchema = (alias: string, version: number) =>
  unwrap<LoadedSchema>(api.post(`/schemas/${enc(alias)}/rollback`, { version }));
