import { AxiosError, type InternalAxiosRequestConfig } from 'axios';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { WriteEvent } from './client';

// The client's neighbours that need a browser (the session store, the local error log, the toaster) are replaced;
// the test is about what `unwrap` makes of an answer.
const toasts: string[] = [];
vi.mock('./notify', () => ({ notifyError: (text: string) => { toasts.push(text); } }));
vi.mock('../i18n', () => ({ default: { language: 'en-US', t: (key: string, vars?: Record<string, unknown>) => `${key}${vars ? JSON.stringify(vars) : ''}` } }));
vi.mock('../db/errorLog', () => ({ logLocalError: async () => undefined }));
vi.mock('../store/session', () => ({ useSession: { getState: () => ({ token: null, showAllData: false, user: null }) } }));

// A failed call is logged with the page it happened on.
vi.stubGlobal('window', { location: { pathname: '/cases', assign: () => undefined } });

const clientModule = await import('./client');
const { unwrap } = clientModule;
const { EnvelopeError } = await import('./envelope');

const answer = (data: unknown, silent?: boolean) => Promise.resolve({ data, config: { silent } });

describe('unwrap, the one reader of the answer envelope', () => {
  beforeEach(() => { toasts.length = 0; });

  it('gives the data of a code 0 answer', async () => {
    await expect(unwrap(answer({ code: 0, message: 'ok', data: { id: 7 } }))).resolves.toEqual({ id: 7 });
    expect(toasts).toEqual([]);
  });

  it('refuses a code other than 0 with the server\'s message, and shows it', async () => {
    const read = unwrap(answer({ code: 40001, message: '病理号已存在', data: { id: 7 } }));
    await expect(read).rejects.toBeInstanceOf(EnvelopeError);
    await expect(read).rejects.toMatchObject({ displayText: '病理号已存在', code: 40001 });
    expect(toasts).toEqual(['病理号已存在']);
  });

  it('names a refusal that carries no message with the translated fallback', async () => {
    await expect(unwrap(answer({ code: 3, data: null }))).rejects.toMatchObject({ displayText: 'request.refused{"code":3}' });
  });

  it('does not show a refusal the caller shows itself (silent)', async () => {
    await expect(unwrap(answer({ code: 1, message: 'no', data: null }, true))).rejects.toMatchObject({ displayText: 'no' });
    expect(toasts).toEqual([]);
  });
});

describe('onWrite, the one "a write happened" signal', () => {
  const { api, onWrite } = clientModule;
  const answered = (status: number) => async (config: InternalAxiosRequestConfig) => {
    const response = { data: { code: 0, data: null }, status, statusText: '', headers: {}, config };
    if (status >= 400) throw new AxiosError('refused', 'ERR_BAD_RESPONSE', config, undefined, response);
    return response;
  };

  it('tells every listener of a write as it leaves and as it ends, with its address, whoever sent it', async () => {
    const heard: WriteEvent[] = [];
    const stop = onWrite((w) => heard.push(w));
    await api.post('/common/setting', { settings_key: 'k' }, { adapter: answered(200), silent: true });
    await api.get('/common/setting/get', { adapter: answered(200) });
    stop();
    await api.post('/common/setting', {}, { adapter: answered(200), allowMultiple: true });
    expect(heard).toEqual([{ url: '/common/setting', phase: 'sent' }, { url: '/common/setting', phase: 'done' }]);
  });

  it('announces a failed write as ended too (one row of many may have changed)', async () => {
    const heard: WriteEvent[] = [];
    const stop = onWrite((w) => heard.push(w));
    await expect(api.delete('/system_management/roles/destroy', { adapter: answered(409), silent: true })).rejects.toBeInstanceOf(AxiosError);
    stop();
    expect(heard.map((w) => w.phase)).toEqual(['sent', 'done']);
  });
});
