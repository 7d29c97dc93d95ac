import axios, { AxiosError, type AxiosRequestConfig, type InternalAxiosRequestConfig } from 'axios';
import i18n from '../i18n';
import { createDuplicateLock } from '../core/duplicateLock';
import { errorText, errorTextFromBlobText } from '../core/errorText';
import { serializeParams } from '../core/queryString';
import { EnvelopeError, readEnvelope } from './envelope';
import { logLocalError } from '../db/errorLog';
import { useSession } from '../store/session';
import { notifyError } from './notify';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Let the same POST/PATCH/PUT go out again within 5 s (spec §7). */
    allowMultiple?: boolean;
    /** Do not toast failures; the caller shows them (login endpoints, spec §8). */
    silent?: boolean;
    /** false: only the working hospital's rows even while show-all-data is on (a choice that must be made there). */
    showAllData?: boolean;
  }
}

/**
 * How long an API call may take before the browser gives up with "request timed out". The server bounds its own
 * work (statement timeout, list limits), so a minute means a lost answer, not a slow one. A file body (a 2 MB
 * upload chunk) gets ten minutes, for a slow hospital link; past that the connection is dead and the uploader
 * sends the chunk again. (The spec's 120 s is for loading a code chunk: src/core/chunkLoad.ts.)
 */
export const API_TIMEOUT_MS = 60_000;
export const FILE_BODY_TIMEOUT_MS = 600_000;

const isFileBody = (data: unknown) => data instanceof FormData || data instanceof Blob || data instanceof ArrayBuffer;

/** The one HTTP client of the browser app (spec §7, §8). */
export const api = axios.create({
  baseURL: '/api',
  timeout: API_TIMEOUT_MS,
  paramsSerializer: (params) => serializeParams(params),
});

const lock = createDuplicateLock();

const READS = new Set(['get', 'head', 'options']);
/** A write (any non-GET request) as it leaves (`sent`) and as it ends, answered or failed (`done`). */
export interface WriteEvent { url: string; phase: 'sent' | 'done' }
const writeListeners = new Set<(write: WriteEvent) => void>();
/**
 * The one "a write happened" signal, whoever sent the write: an answer fetched ahead of its page (listPrefetch) must
 * not be shown after it, and the caches of what it may have changed (resource options, settings) drop it. `url` is
 * under the API base (`/common/setting`). A failed write is announced too: one row of many may have changed.
 */
export function onWrite(listener: (write: WriteEvent) => void): () => void {
  writeListeners.add(listener);
  return () => { writeListeners.delete(listener); };
}
function announceWrite(config: { method?: string; url?: string } | undefined, phase: WriteEvent['phase']): void {
  if (!config || READS.has((config.method ?? 'get').toLowerCase())) return;
  const write = { url: config.url ?? '', phase };
  for (const l of [...writeListeners]) l(write);
}

export class DuplicateRequestError extends Error {}

api.interceptors.request.use((config: InternalAxiosRequestConfig) => {
  const method = config.method ?? 'get';
  if (!lock.acquire(method, config.url ?? '', config.allowMultiple)) {
    const message = i18n.t('request.duplicate');
    notifyError(message);
    throw new DuplicateRequestError(message);
  }
  const { token, showAllData } = useSession.getState();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  // Spec §6: with the header's switch on, hospital-scoped resources answer for all the user's hospitals.
  if (showAllData && config.showAllData !== false) config.headers.set('X-Show-All-Data', '1');
  config.headers.set('User-Language', i18n.language);
  if (isFileBody(config.data) && config.timeout === API_TIMEOUT_MS) config.timeout = FILE_BODY_TIMEOUT_MS;
  announceWrite(config, 'sent');
  return config;
  // Synchronous: the request goes out in the caller's tick. Run through a promise chain, a list request made as a menu
  // entry is clicked waited for the whole render of the next page (tens of ms) before it went out.
}, undefined, { synchronous: true });

api.interceptors.response.use(
  (response) => {
    lock.release(response.config.method ?? 'get', response.config.url ?? '');
    announceWrite(response.config, 'done');
    return response;
  },
  async (error: AxiosError) => {
    const config = error.config as AxiosRequestConfig | undefined;
    if (config) lock.release(config.method ?? 'get', config.url ?? '');
    announceWrite(config, 'done');
    if (error instanceof DuplicateRequestError) throw error;

    const status = error.response?.status;
    const text = (await readErrorText(error)) ?? i18n.t('request.failed', { status: status ?? '—' });
    (error as AxiosError & { displayText?: string }).displayText = text;

    if (status === 401 && !config?.silent) {
      useSession.getState().clear();
      if (window.location.pathname !== '/login') window.location.assign('/');
      throw error;
    }
    if (isScreenLockRefusal(status, config?.url)) {
      // The session was locked (here or in another tab of it): show the lock screen, not an error.
      const session = useSession.getState();
      if (session.token && !session.locked) session.lock(window.location.pathname + window.location.search);
      throw error;
    }
    if (!config?.silent) notifyError(text);
    void logLocalError({
      time: new Date().toISOString(),
      user: currentUser(),
      error: `HTTP ${status ?? 'network'} ${config?.method?.toUpperCase()} ${config?.url}: ${text}`,
      page: window.location.pathname,
    });
    throw error;
  },
);

/**
 * 423 from the login and lock-screen calls means the account is locked (their callers show it); from any other
 * call, that this session's screen is locked on the server.
 */
function isScreenLockRefusal(status: number | undefined, url: string | undefined): boolean {
  return status === 423 && !url?.startsWith('/auth/');
}

async function readErrorText(error: AxiosError): Promise<string | undefined> {
  const data = error.response?.data;
  if (data instanceof Blob) return errorTextFromBlobText(await data.text());
  if (!error.response) return error.code === 'ECONNABORTED' ? i18n.t('request.timeout') : i18n.t('request.network');
  return errorText(data);
}

function currentUser() {
  const user = useSession.getState().user;
  return { id: user?.id ?? null, realname: user?.realname ?? null };
}

/** The text to show for any error thrown by `api`. */
export function displayText(error: unknown, fallback: string): string {
  return (error as { displayText?: string })?.displayText ?? fallback;
}

/**
 * The one reader of the `{ code, message, data }` envelope (src/api/envelope.ts): the data, or, for `code !== 0`, an
 * EnvelopeError with the server's translated message, shown as every failed call is (a toast unless `silent`).
 */
export async function unwrap<T>(request: Promise<{ data: unknown; config?: { silent?: boolean } }>): Promise<T> {
  const response = await request;
  try {
    return readEnvelope<T>(response.data, (code) => i18n.t('request.refused', { code }));
  } catch (e) {
    if (e instanceof EnvelopeError && !response.config?.silent) notifyError(e.displayText);
    throw e;
  }
}
