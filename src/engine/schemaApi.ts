import type { OptionLabelColumns } from '../core/optionLabel';
import { api, unwrap } from '../api/client';
import type { ColumnPref } from '../core/columnPrefs';
import type { Label, LoadedSchema, PageSchema } from '../core/pageSchema';
import { useSession } from '../store/session';
import { createCache, scopedKey } from './cache';

/** Calls of the schema service (server/modules/schemas). */
export interface EnumOption { value: unknown; label: Label; color?: string }
export type Enums = Record<string, EnumOption[]>;
export interface ResourceSummary { name: string; route: string; optionLabel?: OptionLabelColumns; optionValue?: string; permissions?: Record<string, string> }
export interface SchemaVersion { version: number; created_at: string; created_by: string | number | null; override: Record<string, unknown> | null }

const enc = encodeURIComponent;
/** The working hospital: its override is part of the schema the server answers with. */
const hospital = () => useSession.getState().hospitalId;

/**
 * Page schemas as the working hospital sees them (base + its override), per hospital and alias. Kept five
 * minutes: an override another administrator saves reaches a page on its first visit after that; this
 * browser's own saves and rollbacks at once.
 */
const schemas = createCache<LoadedSchema>(5 * 60_000);
const schemaKey = (alias: string) => scopedKey(hospital(), 'schema', alias);

/** GET /api/schemas/{alias}, cached per hospital; a 404 rejects with status 404 (the caller falls back). */
const fetchSchema = (alias: string) => unwrap<LoadedSchema>(api.get(`/schemas/${enc(alias)}`, { silent: true }));
export const loadSchema = (alias: string): Promise<LoadedSchema> => schemas.get(schemaKey(alias), () => fetchSchema(alias));
/** The schema if it is already here: a warm page renders at once, without a loading frame. */
export const peekSchema = (alias: string): LoadedSchema | undefined => schemas.peek(schemaKey(alias));
/** After the schema editor saves or rolls back, the next visit reads the new version (in every hospital's copy). */
export const forgetSchema = (alias: string) => schemas.forget((key) => key.endsWith(`|schema|${alias}`));
/** After a resource's contract changes, every page may carry it: all cached schemas go. */
export const forgetAllSchemas = () => schemas.forget(() => true);

/** Enums (schemas/enums) and the resource summaries: the same for every page, one request each per hospital. */
const shared = createCache<unknown>();
export const loadEnums = () => shared.get(scopedKey(hospital(), 'enums'), () => unwrap<Enums>(api.get('/enums'))) as Promise<Enums>;
export const peekEnums = () => shared.peek(scopedKey(hospital(), 'enums')) as Enums | undefined;
export const loadResources = () =>
  shared.get(scopedKey(hospital(), 'resources'), () => unwrap<ResourceSummary[]>(api.get('/resources'))) as Promise<ResourceSummary[]>;
export const peekResources = () => shared.peek(scopedKey(hospital(), 'resources')) as ResourceSummary[] | undefined;

/**
 * Fetches, side by side and in the background, what schema pages need: the schemas of `aliases`
 * (the signed-in user's menu), the enums and the resource summaries. A first visit then finds them
 * here and asks only for its rows. Failures are left for the page itself to meet and show.
 */
export function prefetchSchemas(aliases: Iterable<string>): void {
  const quiet = (p: Promise<unknown>) => void p.catch(() => undefined);
  quiet(loadEnums());
  quiet(loadResources());
  const missing = [...new Set(aliases)].filter((a) => !peekSchema(a));
  if (!missing.length) return;
  // One request for them all. An alias the answer lacks (or a failed answer) leaves no entry: the page's own
  // visit then asks for it and meets the server's error itself.
  const bundle = unwrap<Record<string, LoadedSchema>>(api.get('/schema-bundle', { params: { aliases: missing.join(',') }, silent: true }));
  for (const alias of missing) {
    quiet(schemas.get(schemaKey(alias), () => bundle.then((b) => b[alias] ?? Promise.reject(new Error(`no schema ${alias}`)))));
  }
}

/** The user's column preferences per page, read once per session; a save replaces the cached copy. */
const columnPrefs = createCache<ColumnPref[]>();
const prefsKey = (alias: string) => scopedKey(useSession.getState().user?.id ?? 0, 'columns', alias);
export const fetchColumnPrefs = (alias: string) =>
  columnPrefs.get(prefsKey(alias), () => unwrap<{ columns: ColumnPref[] }>(api.get(`/schemas/${enc(alias)}/columns`, { silent: true })).then((d) => d?.columns ?? []));
export const peekColumnPrefs = (alias: string) => columnPrefs.peek(prefsKey(alias));
export const saveColumnPrefs = (alias: string, columns: ColumnPref[]) => {
  const key = prefsKey(alias);
  columnPrefs.forget((k) => k === key);
  void columnPrefs.get(key, async () => columns);
  return unwrap(api.put(`/schemas/${enc(alias)}/columns`, { columns }, { allowMultiple: true, silent: true }));
};

export const fetchVersions = (alias: string) => unwrap<SchemaVersion[]>(api.get(`/schemas/${enc(alias)}/versions`));
export const fetchBase = (alias: string) => unwrap<PageSchema | { schema: PageSchema }>(api.get(`/schemas/${enc(alias)}/base`));
/** A saved or rolled-back override changes what the page shows: its cached schema goes (even when the call failed half way). */
const changesSchema = <T>(alias: string, call: Promise<T>) => call.finally(() => forgetSchema(alias));
export const saveOverride = (alias: string, override: Record<string, unknown>) =>
  changesSchema(alias, unwrap<LoadedSchema>(api.put(`/schemas/${enc(alias)}`, { override }, { silent: true })));
export const rollbackSchema = (alias: string, version: number) =>
  changesSchema(alias, unwrap<LoadedSchema>(api.post(`/schemas/${enc(alias)}/rollback`, { version })));
