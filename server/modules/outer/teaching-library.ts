import { AppError } from '../../http/errors.js';
import type { SecretBox } from '../../security/sealed-secrets.js';
import { outsideUrlProblem } from '../sso/config.js';

/** A library (or a chapter of one) of the external teaching system, as its adapter answers it. */
export interface TeachingLibraryEntry { id: string; name: string; parent_id: string | null }

/** What is sent of a slide: enough to list and open it there, nothing about the patient. */
export interface TeachingSlide {
  slide_id: number;
  name: string;
  pathology_number: string | null;
  specimen_name: string | null;
  /** The slide in DSMS's viewer (PUBLIC_URL): the library links to it; opening it needs a DSMS sign-in. */
  viewer_url: string;
}

/**
 * The external teaching library ("jiaopei", teaching and training) behind outer/jiaopei/*: a pluggable adapter, so a
 * hospital's own system is reached by writing one. `bind` is keyed by our slide id: the library must treat a slide
 * sent again as the same one (requests can be repeated after a timeout).
 */
export interface TeachingLibraryAdapter {
  libraries(): Promise<TeachingLibraryEntry[]>;
  bind(libraryId: string, slides: TeachingSlide[]): Promise<{ slide_id: number; external_id: string }[]>;
}

/** The `teaching_library` setting (System settings): which adapter, and where the HTTP one calls. */
export interface TeachingLibrarySetting { adapter: 'none' | 'http'; base_url: string; api_token: string }

const TIMEOUT_MS = 10_000;
const MAX_LIBRARIES = 2000;
const text = (v: unknown, max: number) => (typeof v === 'string' || typeof v === 'number') && String(v).length > 0 && String(v).length <= max ? String(v) : null;

/**
 * The HTTP adapter: `GET <base_url>/libraries` → `{ data: [{ id, name, parent_id }] }` and `POST <base_url>/slides`
 * `{ library_id, slides: [TeachingSlide] }` → `{ data: [{ slide_id, external_id }] }`, both with
 * `Authorization: Bearer <api_token>` (stored sealed, opened
 * only for the call). Anything else from the library is its refusal (502), never trusted further.
 */
export function httpTeachingLibrary(setting: TeachingLibrarySetting, secrets: SecretBox): TeachingLibraryAdapter {
  const call = async (path: string, init: RequestInit = {}): Promise<unknown[]> => {
    let res: Response;
    try {
      res = await fetch(`${setting.base_url}${path}`, {
        ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS),
        headers: { accept: 'application/json', authorization: `Bearer ${secrets.open(setting.api_token)}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      });
    } catch {
      throw new AppError(502, 'teaching.unreachable');
    }
    const body = await res.json().catch(() => null) as { data?: unknown } | null;
    if (!res.ok || !body || !Array.isArray(body.data)) throw new AppError(502, 'teaching.rejected', { status: res.status });
    return body.data;
  };
  return {
    async libraries() {
      const rows = await call('/libraries');
      return rows.slice(0, MAX_LIBRARIES).flatMap((r) => {
        const row = r as Record<string, unknown>;
        const id = text(row.id, 64);
        const name = text(row.name, 200);
        return id && name ? [{ id, name, parent_id: text(row.parent_id, 64) }] : [];
      });
    },
    async bind(libraryId, slides) {
      const rows = await call('/slides', { method: 'POST', body: JSON.stringify({ library_id: libraryId, slides }) });
      return rows.flatMap((r) => {
        const row = r as Record<string, unknown>;
        const external = text(row.external_id, 200);
        return typeof row.slide_id === 'number' && external ? [{ slide_id: row.slide_id, external_id: external }] : [];
      });
    },
  };
}

/** The adapter the setting names, or null when the teaching library is not set up; `secrets` opens its token. */
export function teachingLibraryFor(setting: TeachingLibrarySetting | null, secrets: SecretBox): TeachingLibraryAdapter | null {
  if (!setting || setting.adapter !== 'http' || !setting.base_url || outsideUrlProblem(setting.base_url)) return null;
  return httpTeachingLibrary(setting, secrets);
}

/** Reads the stored setting (JSON text or object) into its shape; anything unusable is "not set up". */
export function parseTeachingSetting(value: unknown): TeachingLibrarySetting | null {
  let v = value;
  if (typeof v === 'string') {
    try { v = JSON.parse(v); } catch { return null; }
  }
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  return {
    adapter: o.adapter === 'http' ? 'http' : 'none',
    base_url: typeof o.base_url === 'string' ? o.base_url.trim().replace(/\/+$/, '') : '',
    api_token: typeof o.api_token === 'string' ? o.api_token : '',
  };
}
