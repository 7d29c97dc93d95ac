import { api, unwrap } from '../api/client';
import { countQueryToWire, listQueryToWire, MAX_GET_QUERY, queryLength, type CountQuery, type ListQuery } from '../core/listRequest';

/**
 * The one way the engine talks to the server, shaped after refine's DataProvider
 * (packages/core/src/contexts/data/types.ts) over spec §7's generic resource helper:
 * `{route}/lists`, `/count`, `/store`, `/item/{id}`, `/update/{id}`, `/destroy`, plus the system
 * settings (`/common/setting`). The interface names no transport: the HTTP one below happens to use
 * the app's axios client; a test or another host can supply any object of this shape.
 */
export type Row = Record<string, unknown>;
export interface ResourceRef { route: string }
export interface ListResult { data: Row[]; total: number; current_page: number; per_page: number; total_pages: number }
export type Id = string | number;
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How one call is made; every field is optional and transport-neutral. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** false: only the working hospital's rows even while show-all-data is on. */
  showAllData?: boolean;
  /** The caller shows failures itself (no toast). */
  silent?: boolean;
  /** The same write may go out again at once (spec §7's duplicate lock lets it through). */
  allowMultiple?: boolean;
}

export interface DataProvider {
  /** Structured as refine's getList: the provider, not its caller, knows the wire (src/core/listRequest.ts). */
  getList(resource: ResourceRef, query: ListQuery, options?: RequestOptions): Promise<ListResult>;
  /** Counts per tab of `query.tabs` (spec §7 `/count`). */
  getCount(resource: ResourceRef, query: CountQuery, options?: RequestOptions): Promise<Record<string, number>>;
  getOne(resource: ResourceRef, id: Id, options?: RequestOptions): Promise<Row>;
  create(resource: ResourceRef, body: Row, options?: RequestOptions): Promise<Row>;
  update(resource: ResourceRef, id: Id, body: Row, options?: RequestOptions): Promise<Row>;
  deleteMany(resource: ResourceRef, ids: Id[], options?: RequestOptions): Promise<void>;
  /**
   * Optional: an answer already here for this query (a list sent ahead of its page, src/engine/list/listPrefetch.ts),
   * so the page's first render draws its rows; left in place for the page's getList to take.
   */
  peekList?(resource: ResourceRef, query: ListQuery): ListResult | undefined;
  peekCount?(resource: ResourceRef, query: CountQuery): Record<string, number> | undefined;
  /** A system setting's stored value (spec §7: system_config, usually JSON text). */
  getSetting(key: string, options?: RequestOptions): Promise<unknown>;
  saveSetting(key: string, value: string, options?: RequestOptions): Promise<void>;
  custom<T = unknown>(request: { method: Method; url: string; params?: Row; body?: unknown; options?: RequestOptions }): Promise<T>;
}

/** Resource routes are written as the browser sees them (`/api/...`); the client's base is already `/api`. */
export const resourceUrl = (route: string, suffix = '') => `${route.replace(/^\/api(?=\/|$)/, '')}${suffix}`;

/** Lists and counts read `data.data` (spec §7 "Response read from data.data.data or data.data"). */
function asList(data: unknown): ListResult {
  const d = (data ?? {}) as Partial<ListResult> & { data?: unknown };
  const rows = Array.isArray(d) ? (d as Row[]) : Array.isArray(d.data) ? (d.data as Row[]) : [];
  const total = Number(d.total ?? rows.length) || 0;
  return { data: rows, total, current_page: Number(d.current_page ?? 1), per_page: Number(d.per_page ?? rows.length), total_pages: Number(d.total_pages ?? 1) };
}

/** A list or count read: long filters go in a POST body with the same names (spec §7), which is still a read. */
function read<T>(url: string, wire: object, options?: RequestOptions): Promise<T> {
  return unwrap<T>(queryLength(wire) > MAX_GET_QUERY
    ? api.post(url, wire, { ...options, allowMultiple: true })
    : api.get(url, { ...options, params: wire }));
}

const SETTING = '/common/setting';

export const httpDataProvider: DataProvider = {
  getList: async (resource, query, options) => asList(await read(resourceUrl(resource.route, '/lists'), listQueryToWire(query), options)),
  getCount: async (resource, query, options) => (await read<Record<string, number>>(resourceUrl(resource.route, '/count'), countQueryToWire(query), options)) ?? {},
  getOne: (resource, id, options) => unwrap(api.get(resourceUrl(resource.route, `/item/${encodeURIComponent(String(id))}`), options)),
  create: (resource, body, options) => {
    const url = resourceUrl(resource.route, '/store');
    return unwrap(api.post(url, body, options));
  },
  update: (resource, id, body, options) => {
    const url = resourceUrl(resource.route, `/update/${encodeURIComponent(String(id))}`);
    return unwrap(api.patch(url, body, options));
  },
  async deleteMany(resource, ids, options) {
    const url = resourceUrl(resource.route, '/destroy');
    await unwrap(api.delete(url, { ...options, data: { ids } }));
  },
  getSetting: (key, options) => unwrap(api.get(`${SETTING}/get`, { ...options, params: { settings_key: key } })),
  async saveSetting(key, value, options) {
    await unwrap(api.post(SETTING, { settings_key: key, settings_value: value }, options));
  },
  custom: ({ method, url, params, body, options }) => unwrap(api.request({ ...options, method, url: resourceUrl(url), params, data: body })),
};
