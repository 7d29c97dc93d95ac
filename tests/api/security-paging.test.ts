import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../server/i18n/translate.js';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * Issue 27, finding 8: a page number too large for a number (1e309 reads as Infinity) answered 500 on the lists
 * that read their own page params. Every such list now reads them through the resource lists' one function
 * (server/resources/list-query.ts pageParams) and answers its translated 422, in either language, on both databases.
 */
const LISTS = [
  '/api/messages/lists',
  '/api/messages/send-by-me',
  '/api/meetings',
  '/api/pathology/stuck',
  '/api/pathology/by-status?status=registered',
  '/api/config/labels/maintenance_record',
];
const BAD = ['1e309', '-1', '0', '1.5', 'abc', '99999999999'];

describe.each(databases)('page params of the hand-written lists [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
  });
  afterAll(async () => h?.close());

  const url = (list: string, param: string, value: string) => `${list}${list.includes('?') ? '&' : '?'}${param}=${value}`;

  it('answers a page or page size of 1e309 (and other non-pages) with the translated 422 of the resource lists', async () => {
    // Every answer that is not that 422, so a failure names all the lists and values at once.
    const wrong: string[] = [];
    for (const list of LISTS) {
      for (const param of ['page', 'page_size']) {
        for (const value of BAD) {
          for (const lang of ['zh-CN', 'en-US'] as const) {
            const res = await call(h.app, 'GET', url(list, param, value), { token: admin, lang });
            const message = res.statusCode === 422 ? (res.json() as { message?: string }).message : undefined;
            if (message !== translate(lang, 'resource.bad_page')) wrong.push(`${list} ${param}=${value} ${lang}: ${res.statusCode} ${res.body}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('still pages as before with good values', async () => {
    for (const list of LISTS) {
      const res = await call(h.app, 'GET', url(list, 'page', '1'), { token: admin });
      expect(res.statusCode, `${list}: ${res.body}`).toBe(200);
      const paged = await call(h.app, 'GET', url(url(list, 'page', '2'), 'page_size', '5'), { token: admin });
      expect(paged.statusCode, `${list}: ${paged.body}`).toBe(200);
      expect(paged.json().data, list).toMatchObject({ current_page: 2, per_page: 5 });
    }
  });
});
