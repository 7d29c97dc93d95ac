import type { AxiosRequestConfig, Method } from 'axios';
import { api, unwrap } from '../api/client';
import { MAX_GET_QUERY, queryLength, type ListRequest } from '../core/listRequest';

/**
 * The one way the engine talks to the server, shaped after refine's DataProvider
 * (packages/core/src/contexts/data/types.ts) over spec §7's generic resource helper:
 * `{route}/lists`, `/count`, `/store`, `/item/{id}`, `/update/{id}`, `/destroy`.
 */
export type Row = Record<string, unknown>;
export interface ResourceRef { route: string }
export interface ListResult { data: Row[]; total: number; current_page: number; per_page: number; total_pages: number }
export type Id = string | number;

/** A 200 response whose envelope carries a failure (spec §8 "List call with a message"). */
export class EnvelopeError extends Error {
  readonly displayText: string;
  constructor(message: string) {
    super(message);
    this.displayText = message;
  }
}

export interface DataProvider {
  getList(resource: ResourceRef, request: ListRequest, config?: { signal?: AbortSignal; showAllData?: boolean }): Promise<ListResult>;
  getCount(resource: ResourceRef, request: Omit<ListRequest, 'page' | 'page_size'>, config?: { signal?: AbortSignal }): Promise<Record<string, number>>;
  getOne(resource: ResourceRef, id: Id): Promise<Row>;
  create(resource: ResourceRef, body: Row): Promise<Row>;
  update(resource: ResourceRef, id: Id, body: Row, config?: AxiosRequestConfig): Promise<Row>;
  deleteMany(resource: ResourceRef, ids: Id[]): Promise<void>;
  custom<T = unknown>(request: { method: Method; url: string; params?: Row; body?: unknown; config?: AxiosRequestConfig }): Promise<T>;
}

/** Resource routes are written as the browser sees them (`/api/...`); the client's base is already `/api`. */
export const resourceUrl = (route: string, suffix = '') => `${route.replace(/^\/api(?=\/|$)/, '')}${suffix}`;

interface Envelope<T> { code?: number; message?: string; data: T }

/** Unwraps the envelope, turning `code !== 0` into an error that carries the server's message. */
async function envelope<T>(request: Promise<{ data: Envelope<T> }>): Promise<T> {
  const body = (await request).data;
  if (body && typeof body.code === 'number' && body.code !== 0) throw new EnvelopeError(body.message || 'error');
  return body.data;
}

/** Lists and counts read `data.data` (spec §7 "Response read from data.data.data or data.data"). */
function asList(data: unknown): ListResult {
  const d = (data ?? {}) as Partial<ListResult> & { data?: unknown };
  const rows = Array.isArray(d) ? (d as Row[]) : Array.isArray(d.data) ? (d.data as Row[]) : [];
  const total = Number(d.total ?? rows.length) || 0;
  return { data: rows, total, current_page: Number(d.current_page ?? 1), per_page: Number(d.per_page ?? rows.length), total_pages: Number(d.total_pages ?? 1) };
}

export const httpDataProvider: DataProvider = {
  async getList(resource, request, config) {
    const url = resourceUrl(resource.route, '/lists');
    // Long filters go in a POST body with the same names (spec §7).
    const call = queryLength(request) > MAX_GET_QUERY
      ? api.post(url, request, { signal: config?.signal, allowMultiple: true, showAllData: config?.showAllData })
      : api.get(url, { params: request, signal: config?.signal, showAllData: config?.showAllData });
    return asList(await envelope(call));
  },
  async getCount(resource, request, config) {
    return (await envelope<Record<string, number>>(api.get(resourceUrl(resource.route, '/count'), { params: request, signal: config?.signal }))) ?? {};
  },
  getOne: (resource, id) => envelope(api.get(resourceUrl(resource.route, `/item/${encodeURIComponent(String(id))}`))),
  create: (resource, body) => envelope(api.post(resourceUrl(resource.route, '/store'), body)),
  update: (resource, id, body, config) => envelope(api.patch(resourceUrl(resource.route, `/update/${encodeURIComponent(String(id))}`), body, config)),
  async deleteMany(resource, ids) {
    await envelope(api.delete(resourceUrl(resource.route, '/destroy'), { data: { ids } }));
  },
  custom: ({ method, url, params, body, config }) => unwrap(api.request({ method, url: resourceUrl(url), params, data: body, ...config })),
};
