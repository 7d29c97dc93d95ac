import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_STATUS_CASES } from '../../src/core/caseStatus.fixtures.js';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * Spec §4 status on the server: the same cases as the unit test of the rule file, stored as cases and read back
 * through the case list (derived case_status), the tab counts and the status filter, on both databases; a
 * hospital's override of the rule changes all three at once.
 */
describe.each(databases)('case status on the server [%s]', (kind) => {
  let h: Harness;
  let token: string;
  let ids: number[];

  beforeAll(async () => {
    h = await startApp(kind);
    token = await tokenFor(h.app, 'admin');
    const hospital = (await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow()).id;
    // H002 (one demo case) holds the spec cases; the administrator works there for this suite.
    await call(h.app, 'POST', '/api/auth/switch_hospital', { token, payload: { hospital_id: hospital } });
    await h.db.deleteFrom('slides').where('hospital_id', '=', hospital).execute();
    await h.db.deleteFrom('cases').where('hospital_id', '=', hospital).execute();
    const now = new Date().toISOString();
    ids = [];
    for (const [i, c] of CASE_STATUS_CASES.entries()) {
      const { id } = await h.db.insertInto('cases').values({
        hospital_id: hospital, pathology_number: `S-${i}`, case_type: 'routine', expedite_status: 0, extra: '{}', created_at: now, updated_at: now,
        ...(c.row as { main_phase: string }),
      }).returning('id').executeTakeFirstOrThrow();
      ids.push(id);
    }
  });
  afterAll(async () => h?.close());

  const expectedCounts = (cases = CASE_STATUS_CASES.map((c) => c.status)) => cases.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

  it('every spec case shows its status in the case list', async () => {
    const res = await call(h.app, 'GET', '/api/pathology/lists?page_size=100', { token });
    const byId = new Map(res.json().data.data.map((r: { id: number; case_status: string }) => [r.id, r.case_status]));
    expect(CASE_STATUS_CASES.map((c, i) => [c.spec, byId.get(ids[i])])).toEqual(CASE_STATUS_CASES.map((c) => [c.spec, c.status]));
  });

  it('tab counts and the status filter agree with the rule, case for case', async () => {
    const counts = (await call(h.app, 'GET', '/api/pathology/status-counts', { token })).json().data;
    expect(counts).toEqual({ counts: expectedCounts(), total: CASE_STATUS_CASES.length });
    const filtered = await call(h.app, 'GET', '/api/pathology/by-status?status=to_print,sent', { token });
    expect(filtered.statusCode, filtered.body).toBe(200);
    const want = ids.filter((_, i) => ['to_print', 'sent'].includes(CASE_STATUS_CASES[i].status)).sort((a, b) => b - a);
    expect(filtered.json().data.data.map((r: { id: number }) => r.id)).toEqual(want);
    expect(filtered.json().data.total).toBe(want.length);
    expect((await call(h.app, 'GET', '/api/pathology/by-status?status=nothing_has_this', { token })).json().data.total).toBe(0);
    expect((await call(h.app, 'GET', '/api/pathology/by-status?status=x;drop', { token })).statusCode).toBe(422);
  });

  it('CaseList status tabs: the generic list and count filter by the derived case_status, combined with other filters, exactly as the rule says', async () => {
    const q = (o: Record<string, unknown>) => Object.entries(o).map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`).join('&');
    const tabs = [
      { key: 'print', filter: [{ column: 'case_status', operator: 'in', value: ['to_print', 'sent'] }] },
      { key: 'not_sent', filter: [{ column: 'case_status', operator: '!=', value: 'sent' }] },
      { key: 'none', filter: [{ column: 'case_status', operator: '=', value: 'nothing_has_this' }] },
    ];
    const counts = (await call(h.app, 'GET', `/api/pathology/count?${q({ tabs })}`, { token })).json().data;
    const of = (keys: string[]) => CASE_STATUS_CASES.filter((c) => keys.includes(c.status)).length;
    expect(counts).toEqual({ print: of(['to_print', 'sent']), not_sent: CASE_STATUS_CASES.length - of(['sent']), none: 0 });
    const list = (await call(h.app, 'GET', `/api/pathology/lists?${q({ filter: tabs[0].filter })}`, { token })).json().data;
    expect(list.data.map((r: { case_status: string }) => r.case_status).sort()).toEqual(CASE_STATUS_CASES.map((c) => c.status).filter((s) => ['to_print', 'sent'].includes(s)).sort());
    expect(list.total).toBe(of(['to_print', 'sent']));
    // An except group around the derived field, next to a column condition: the complement within the other filter.
    const except = [{ column: 'id', operator: 'in', value: ids }, { condition: 'except', column: 'case_status', operator: 'in', value: ['to_print', 'sent'] }];
    expect((await call(h.app, 'GET', `/api/pathology/lists?${q({ filter: except })}`, { token })).json().data.total).toBe(CASE_STATUS_CASES.length - of(['to_print', 'sent']));
    // Only equality and membership; a value list within the limits; the field is not free SQL.
    expect((await call(h.app, 'GET', `/api/pathology/lists?${q({ filter: [{ column: 'case_status', operator: 'like', value: 'to' }] })}`, { token })).statusCode).toBe(422);
    expect((await call(h.app, 'GET', `/api/pathology/lists?${q({ filter: [{ column: 'case_status', operator: '=', value: { a: 1 } }] })}`, { token })).statusCode).toBe(422);
    expect((await call(h.app, 'GET', `/api/pathology/lists?${q({ filter: [{ column: 'markers', operator: '=', value: 'x' }] })}`, { token })).statusCode).toBe(422);
    const sqlish = await call(h.app, 'GET', `/api/pathology/lists?${q({ filter: [{ column: 'case_status', operator: '=', value: "sent' OR 1=1 --" }] })}`, { token });
    expect(sqlish.json().data.total).toBe(0);
  });

  it('stage words (list-progress filters) count and filter the same way, a case at several at once', async () => {
    const counts = (await call(h.app, 'GET', '/api/pathology/status-counts?view=stages', { token })).json().data.counts;
    // 2 sent (print_deliver_status 3) + 1 filed are done; the other 8 are not.
    expect(counts).toMatchObject({ done: 3, not_done: 8, finish: 1, sent: 2, to_print: 3, to_send: 2, printed: 4 });
    const sent = (await call(h.app, 'GET', '/api/pathology/by-status?view=stages&status=sent', { token })).json().data;
    expect(sent.total).toBe(2);
    expect((await call(h.app, 'GET', '/api/pathology/by-status?view=nope&status=sent', { token })).statusCode).toBe(422);
  });

  it('CaseList progress facet: the generic list filters by the derived case_stages (search value or condition), rows carry their stage words, counts agree', async () => {
    const q = (o: Record<string, unknown>) => Object.entries(o).map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`).join('&');
    const counts = (await call(h.app, 'GET', '/api/pathology/status-counts?view=stages', { token })).json().data.counts as Record<string, number>;
    for (const stage of ['done', 'not_done', 'printed', 'sent']) {
      // What CaseList sends: the facet's choice as a search value (params), beside a column condition.
      const res = await call(h.app, 'GET', `/api/pathology/lists?page_size=100&${q({ params: { case_stages: stage }, filter: [{ column: 'id', operator: 'in', value: ids }] })}`, { token });
      expect(res.statusCode, res.body).toBe(200);
      const rows = res.json().data.data as { case_stages: string[] }[];
      expect(rows.length).toBe(counts[stage]);
      for (const r of rows) expect(r.case_stages).toContain(stage);
    }
    // With a status tab: the intersection (sent cases that are done).
    const both = await call(h.app, 'GET', `/api/pathology/lists?${q({ params: { case_stages: 'done' }, filter: [{ column: 'case_status', operator: '=', value: 'sent' }] })}`, { token });
    expect(both.json().data.total).toBe(2);
    const none = await call(h.app, 'GET', `/api/pathology/lists?${q({ params: { case_stages: 'nothing_has_this' } })}`, { token });
    expect(none.json().data.total).toBe(0);
    expect((await call(h.app, 'GET', `/api/pathology/lists?${q({ filter: [{ column: 'case_stages', operator: 'like', value: 'do' }] })}`, { token })).statusCode).toBe(422);
  });

  it('MissCaseSearch: cases in their phase longer than the hours asked, oldest first; filed cases never', async () => {
    const old = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await h.db.updateTable('cases').set({ phase_at: old(3) }).where('id', '=', ids[8]).execute();
    await h.db.updateTable('cases').set({ phase_at: old(5) }).where('id', '=', ids[9]).execute();
    await h.db.updateTable('cases').set({ phase_at: old(9) }).where('id', '=', ids[0]).execute(); // filed
    const stuck = async (q: string) => (await call(h.app, 'GET', `/api/pathology/stuck?${q}`, { token })).json().data;
    const twoDays = await stuck('hours=48');
    expect(twoDays.data.map((r: { id: number }) => r.id)).toEqual([ids[9], ids[8]]);
    expect(twoDays.data[0].hours_in_phase).toBeGreaterThanOrEqual(5 * 24 - 1);
    expect((await stuck('hours=96')).total).toBe(1);
    expect((await stuck('hours=48&main_phase=sample')).total).toBe(0);
    expect((await call(h.app, 'GET', '/api/pathology/stuck?hours=0', { token })).statusCode).toBe(422);
  });

  it('exports the cases at chosen statuses as .xlsx with headers and words in the user\'s language; only with export_data_role', async () => {
    const res = await call(h.app, 'POST', '/api/pathology/export', { token, lang: 'en-US', payload: { status: ['sent', 'filed'] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Cases')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Pathology number', 'Kind', 'Patient', 'Gender', 'Age', 'Department', 'Specimen', 'Phase', 'Status', 'Registered at']);
    expect(sheet.rowCount).toBe(4);
    const statuses = [2, 3, 4].map((n) => String(sheet.getRow(n).getCell(9).value));
    expect(statuses.sort()).toEqual(['Filed', 'Sent', 'Sent']);
    const zh = await call(h.app, 'POST', '/api/pathology/export', { token, lang: 'zh-CN', payload: {} });
    const zhBook = new ExcelJS.Workbook();
    await zhBook.xlsx.load(zh.rawPayload as unknown as ArrayBuffer);
    expect(zhBook.getWorksheet('病例')!.rowCount).toBe(CASE_STATUS_CASES.length + 1);
    const registrar = await tokenFor(h.app, 'registrar');
    expect((await call(h.app, 'POST', '/api/pathology/export', { token: registrar, payload: {} })).statusCode).toBe(403);
  });

  it('a hospital override of the rule changes list, counts and filter together', async () => {
    const override = { rules: { status: { if: [{ '==': [{ var: 'print_deliver_status' }, 3] }, 'delivered', { var: 'main_phase' }] } } };
    expect((await call(h.app, 'PUT', '/api/rules/case-status', { token, payload: { override } })).statusCode).toBe(200);
    const mapped = CASE_STATUS_CASES.map((c) => (c.row.print_deliver_status === 3 ? 'delivered' : String(c.row.main_phase)));
    expect((await call(h.app, 'GET', '/api/pathology/status-counts', { token })).json().data.counts).toEqual(expectedCounts(mapped));
    const delivered = (await call(h.app, 'GET', '/api/pathology/by-status?status=delivered', { token })).json().data.data;
    expect(delivered.map((r: { case_status: string }) => r.case_status)).toEqual(['delivered', 'delivered']);
    const tabs = encodeURIComponent(JSON.stringify([{ key: 'd', filter: [{ column: 'case_status', operator: '=', value: 'delivered' }] }]));
    expect((await call(h.app, 'GET', `/api/pathology/count?tabs=${tabs}`, { token })).json().data).toEqual({ d: 2 });
    await call(h.app, 'POST', '/api/rules/case-status/rollback', { token, payload: { version: 0 } });
  });
});
