import enCaseDetail from '../../src/i18n/locales/en-US/pages/case-detail.json';
import zhCaseDetail from '../../src/i18n/locales/zh-CN/pages/case-detail.json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';
import { caseAtFirstDiagnosis, type Send } from './diagnosis-setup.js';
import diagnosisList from '../../schemas/pages/DiagnosisList.json';
import { defaultListParams } from '../../src/core/listParams.js';
import { buildCountRequest, buildListRequest } from '../../src/core/listRequest.js';
import type { TabSchema } from '../../src/core/pageSchema.js';

/**
 * Issue 15, the diagnosis workflow on both databases: first → audit (returned once with a reason, approved) → sign →
 * print → send with the spec §4 status right after each step; the held (three-hour) issue recalled during its
 * hesitation period and not after; a supplementary IHC report draft → new → accept with the supplementary prefix;
 * a hospital without audit goes first → sign; two doctors saving one report; refused steps change nothing.
 */
describe.each(databases)('diagnosis and reports [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  let primaryId: number;

  const send: Send = async (who, method, url, payload) => {
    const res = await call(h.app, method, url, { token: t[who], lang: 'en-US', payload });
    if (res.statusCode !== 200) throw new Error(`${method} ${url} as ${who}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const raw = (who: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object, lang = 'en-US') => call(h.app, method, url, { token: t[who], lang, payload });
  /** The case's spec §4 status as the case detail, the case list and the status filter each give it. */
  const statusOf = async (caseId: number) => {
    const lab = (await send('primary', 'GET', `/api/pathology/${caseId}/lab`)).case as { case_status: string };
    const listed = (await send('primary', 'GET', `/api/pathology/lists?page_size=500`)) as { data: { id: number; case_status: string }[] };
    const fromList = listed.data.find((c) => c.id === caseId)?.case_status;
    const filtered = (await send('primary', 'GET', `/api/pathology/by-status?status=${lab.case_status}&page_size=500`)) as { data: { id: number }[] };
    expect(fromList).toBe(lab.case_status);
    expect(filtered.data.map((c) => c.id)).toContain(caseId);
    return lab.case_status;
  };
  const act = (who: string, report: { id: number; version: number }, action: string, extra: object = {}) =>
    send(who, 'POST', `/api/diagnosis/reports/${report.id}/actions/${action}`, { version: report.version, ...extra }) as Promise<{ id: number; version: number; sub_phase: string }>;

  beforeAll(async () => {
    h = await startApp(kind);
    for (const u of ['admin', 'registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor', 'signer']) t[u] = await tokenFor(h.app, u);
    primaryId = await userId(h.db, 'primary');
  });
  afterAll(async () => h?.close());

  it('the timeout tab (DiagnosisList’s own filter, built as the browser builds it) holds unsigned cases registered over 72 h ago', async () => {
    const overdue = await caseAtFirstDiagnosis(send, primaryId);
    const fresh = await caseAtFirstDiagnosis(send, primaryId);
    const fourDaysAgo = new Date(Date.now() - 96 * 3_600_000).toISOString();
    await h.db.updateTable('cases').set({ registration_at: fourDaysAgo }).where('id', '=', overdue).execute();
    const tabs = diagnosisList.list.tabs as TabSchema[];
    const query = (req: object) => new URLSearchParams(Object.entries(req).map(([k, v]) => [k, String(v)])).toString();
    const listed = await send('primary', 'GET', `/api/pathology/lists?${query(buildListRequest(defaultListParams({ tab: 'timeout', pageSize: 100 }), [], tabs))}`) as { data: { id: number }[] };
    const ids = listed.data.map((c) => c.id);
    expect(ids).toContain(overdue);
    expect(ids).not.toContain(fresh);
    const counts = await send('primary', 'GET', `/api/pathology/count?${query(buildCountRequest(defaultListParams(), [], tabs))}`) as Record<string, number>;
    expect(counts.timeout).toBe(ids.length);
    expect(counts.to_first).toBeGreaterThanOrEqual(2);
  });

  it('first → audit (returned with a reason, then approved) → sign → print → send, the §4 status right after each step', async () => {
    const caseId = await caseAtFirstDiagnosis(send, primaryId);
    expect(await statusOf(caseId)).toBe('to_first');
    let report = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, gross_description: '灰白组织两块', diagnosis: '' }) as { id: number; version: number; sub_phase: string };
    expect(await statusOf(caseId)).toBe('draft');
    // Submitting without a diagnosis is refused (422) and changes nothing.
    const empty = await raw('primary', 'POST', `/api/diagnosis/reports/${report.id}/actions/submit`, { version: report.version }, 'zh-CN');
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toBe('诊断意见不能为空');
    report = await send('primary', 'PUT', `/api/diagnosis/reports/${report.id}`, { version: report.version, diagnosis: '（胃窦）慢性浅表性胃炎' }) as typeof report;
    report = await act('primary', report, 'submit');
    expect(report.sub_phase).toBe('to_audit');
    expect(await statusOf(caseId)).toBe('to_audit');
    // The first doctor may not audit; a return needs its reason; both refused without a change.
    expect((await raw('primary', 'POST', `/api/diagnosis/reports/${report.id}/actions/approve`, { version: report.version })).statusCode).toBe(403);
    const noReason = await raw('auditor', 'POST', `/api/diagnosis/reports/${report.id}/actions/return`, { version: report.version, reason: ' ' });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().message).toBe('Give the reason for returning the report');
    report = await act('auditor', report, 'return', { reason: '请补充镜下所见' });
    expect(await statusOf(caseId)).toBe('to_first');
    const editor = await send('primary', 'GET', `/api/diagnosis/${caseId}`) as { report: { return_reason: string; returned_count: number } };
    expect(editor.report).toMatchObject({ return_reason: '请补充镜下所见', returned_count: 1 });
    // The doctor it went back to, and nobody else, is told which case and why, in the reader's language.
    const number = ((await send('primary', 'GET', `/api/pathology/${caseId}/lab`)).case as { pathology_number: string }).pathology_number;
    const told = await h.db.selectFrom('messages').select(['user_id', 'from_user_id', 'kind']).where('message_key', '=', 'message.system.report_returned').where('link', '=', `/diagnosis/${caseId}`).execute();
    expect(told).toEqual([{ user_id: primaryId, from_user_id: null, kind: 'system' }]);
    type Listed = { data: { title: string; content: string; link: string | null }[] };
    const inboxOf = async (who: string, lang: string) => (await raw(who, 'GET', '/api/messages/lists?page_size=100', undefined, lang)).json().data as Listed;
    const en = (await inboxOf('primary', 'en-US')).data.find((m) => m.link === `/diagnosis/${caseId}`);
    expect(en).toMatchObject({ title: `Report returned to you: ${number}` });
    expect(number).toBeTruthy();
    expect(en!.content).toContain(`returned the report of case ${number} to you. Reason: 请补充镜下所见`);
    const zh = (await inboxOf('primary', 'zh-CN')).data.find((m) => m.link === `/diagnosis/${caseId}`);
    expect(zh).toMatchObject({ title: `报告被退回：${number}` });
    expect(zh!.content).toContain('原因：请补充镜下所见');
    for (const other of ['auditor', 'signer', 'allocator']) {
      expect((await inboxOf(other, 'en-US')).data.filter((m) => m.link === `/diagnosis/${caseId}`)).toEqual([]);
    }
    report = await send('primary', 'PUT', `/api/diagnosis/reports/${report.id}`, { version: report.version, microscopic: '胃黏膜慢性炎细胞浸润' }) as typeof report;
    report = await act('primary', report, 'submit');
    report = await act('auditor', report, 'approve');
    expect(await statusOf(caseId)).toBe('to_sign');
    expect((await raw('auditor', 'POST', `/api/diagnosis/reports/${report.id}/actions/sign`, { version: report.version })).statusCode).toBe(403);
    report = await act('signer', report, 'sign', { issue: 'now' });
    expect(await statusOf(caseId)).toBe('to_print');
    report = await act('signer', report, 'print');
    expect(await statusOf(caseId)).toBe('to_send');
    report = await act('signer', report, 'send');
    expect(await statusOf(caseId)).toBe('sent');
    const row = await h.db.selectFrom('reports').selectAll().where('id', '=', report.id).executeTakeFirstOrThrow();
    expect(row.print_at && row.deliver_at && row.sign_at && row.verify_code).toBeTruthy();
    const timeline = (await send('primary', 'GET', `/api/pathology/${caseId}/lab`)).timeline as { action: string }[];
    expect(timeline.map((e) => e.action).filter((a) => a.startsWith('report_'))).toEqual([
      'report_create', 'report_save', 'report_submit', 'report_return', 'report_save', 'report_submit', 'report_approve', 'report_sign', 'report_print', 'report_send',
    ]);
    // Each step says where it took the case from and to (a save moves nothing), and reads as words in both languages.
    const steps = timeline as { action: string; from_sub_phase: string | null; to_sub_phase: string | null }[];
    const signed = steps.find((e) => e.action === 'report_sign')!;
    expect(signed.from_sub_phase && signed.to_sub_phase && signed.from_sub_phase !== signed.to_sub_phase).toBeTruthy();
    const saved = steps.find((e) => e.action === 'report_save')!;
    expect(saved.from_sub_phase).toBe(saved.to_sub_phase);
    for (const words of [zhCaseDetail, enCaseDetail]) {
      for (const { action } of steps) expect(words.lab.timelineAction, action).toHaveProperty(action);
    }
  });

  it('two doctors editing one report: the second is told and overwrites nothing', async () => {
    const caseId = await caseAtFirstDiagnosis(send, primaryId, { patient_name: '李娜' });
    const report = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, diagnosis: '甲' }) as { id: number; version: number };
    await send('primary', 'PUT', `/api/diagnosis/reports/${report.id}`, { version: report.version, diagnosis: '第一位医生' });
    const second = await raw('auditor', 'PUT', `/api/diagnosis/reports/${report.id}`, { version: report.version, diagnosis: '第二位医生' }, 'zh-CN');
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toContain('版本 1');
    expect((await h.db.selectFrom('reports').select('diagnosis').where('id', '=', report.id).executeTakeFirstOrThrow()).diagnosis).toBe('第一位医生');
  });

  it('issue in three hours: recalled during the hesitation period, not after', async () => {
    const caseId = await caseAtFirstDiagnosis(send, primaryId, { patient_name: '张伟' });
    let report = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, diagnosis: '结肠腺瘤' }) as { id: number; version: number; sub_phase: string; issue_at?: string };
    report = await act('primary', report, 'submit');
    report = await act('auditor', report, 'approve');
    report = await act('signer', report, 'sign', { issue: 'later' });
    expect(report.sub_phase).toBe('to_issue');
    expect(Date.parse(report.issue_at!) - Date.now()).toBeGreaterThan(179 * 60_000);
    expect(await statusOf(caseId)).toBe('to_issue');
    report = await act('signer', report, 'recall');
    expect(await statusOf(caseId)).toBe('to_sign');
    report = await act('signer', report, 'sign', { issue: 'later' });
    // Three hours pass (the stored issue time moves into the past).
    await h.db.updateTable('reports').set({ issue_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', report.id).execute();
    const late = await raw('signer', 'POST', `/api/diagnosis/reports/${report.id}/actions/recall`, { version: report.version });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('The hesitation period is over and the report is issued; it can no longer be recalled');
    expect(await statusOf(caseId)).toBe('to_print');
  });

  it('a supplementary IHC report goes draft → new → accept, the case showing the supplementary prefix', async () => {
    const caseId = await caseAtFirstDiagnosis(send, primaryId, { patient_name: '赵敏' });
    let report = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, diagnosis: '乳腺浸润性导管癌' }) as { id: number; version: number; sub_phase: string };
    const early = await raw('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 2, supplement_type: 1 });
    expect(early.statusCode).toBe(409);
    report = await act('primary', report, 'submit');
    report = await act('auditor', report, 'approve');
    expect((await act('signer', report, 'sign')).sub_phase).toBe('signed');
    let sup = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 2, supplement_type: 1, diagnosis: 'ER(+90%), PR(+60%), HER2(1+), Ki-67(20%)' }) as typeof report;
    expect(await statusOf(caseId)).toBe('supplementary_draft');
    sup = await act('primary', sup, 'supplement_submit');
    expect(await statusOf(caseId)).toBe('supplementary_new');
    expect((await raw('primary', 'POST', `/api/diagnosis/reports/${sup.id}/actions/accept`, { version: sup.version })).statusCode).toBe(403);
    expect((await act('signer', sup, 'accept')).sub_phase).toBe('accept');
    expect(await statusOf(caseId)).toBe('supplementary_accept');
    const c = (await send('primary', 'GET', `/api/pathology/${caseId}/lab`)).case as { markers: string[] };
    expect(c.markers).toEqual(expect.arrayContaining(['supplementary', 'ihc_report']));
  });

  it('a hospital with audit switched off goes first → sign (config/workflow)', async () => {
    expect((await raw('primary', 'PATCH', '/api/config/workflow/update', { audit: false })).statusCode).toBe(403);
    expect((await raw('admin', 'PATCH', '/api/config/workflow/update', { audit: 'no' })).statusCode).toBe(422);
    const updated = await send('admin', 'PATCH', '/api/config/workflow/update', { audit: false });
    expect(updated).toMatchObject({ levels: ['first', 'sign'], audit: false });
    expect(await send('primary', 'GET', '/api/config/workflow/lists')).toMatchObject({ audit: false, hesitation_minutes: 180 });
    const caseId = await caseAtFirstDiagnosis(send, primaryId, { patient_name: '孙磊' });
    let report = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, diagnosis: '皮肤脂溢性角化病' }) as { id: number; version: number; sub_phase: string };
    report = await act('primary', report, 'submit');
    expect(report.sub_phase).toBe('to_sign');
    expect(await statusOf(caseId)).toBe('to_sign');
    expect((await act('signer', report, 'sign')).sub_phase).toBe('signed');
    expect(await statusOf(caseId)).toBe('to_print');
    await send('admin', 'PATCH', '/api/config/workflow/update', { audit: true });
  });

  it('a delayed report cannot be filed while the previous one awaits approval', async () => {
    const caseId = await caseAtFirstDiagnosis(send, primaryId, { patient_name: '周杰' });
    let report = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1 }) as { id: number; version: number };
    report = await send('primary', 'POST', `/api/diagnosis/reports/${report.id}/delay`, { version: report.version, reason: '待免疫组化' }) as typeof report;
    const again = await raw('primary', 'POST', `/api/diagnosis/reports/${report.id}/delay`, { version: report.version, reason: '再延迟' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A delayed report cannot be filed while the previous one awaits approval');
    report = await send('auditor', 'POST', `/api/diagnosis/reports/${report.id}/delay`, { version: report.version, approve: true }) as typeof report;
    await send('primary', 'POST', `/api/diagnosis/reports/${report.id}/delay`, { version: report.version, reason: '再延迟' });
  });

  it('diagnostic templates form a tree: an upper template cannot be itself nor below itself; phrases', async () => {
    const root = await send('primary', 'POST', '/api/diagnosis/templates', { name: '消化系统' }) as { id: number };
    const child = await send('primary', 'POST', '/api/diagnosis/templates', { name: '慢性胃炎', parent_id: root.id, diagnosis: '（胃窦）慢性浅表性胃炎' }) as { id: number };
    for (const parent of [child.id, root.id]) {
      const res = await raw('primary', 'PATCH', `/api/diagnosis/templates/${root.id}`, { parent_id: parent }, 'zh-CN');
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('上级模板不能是自己');
    }
    const tree = await send('primary', 'GET', '/api/diagnosis/templates') as unknown as { id: number; children: { id: number }[] }[];
    expect(tree.find((n) => n.id === root.id)?.children.map((c) => c.id)).toEqual([child.id]);
    await send('primary', 'POST', '/api/diagnosis/phrases', { text: '未见肿瘤' });
    expect((await send('primary', 'GET', '/api/diagnosis/phrases') as unknown as { text: string }[]).map((p) => p.text)).toContain('未见肿瘤');
    expect((await raw('primary', 'POST', '/api/diagnosis/phrases', { text: '' })).statusCode).toBe(422);
  });
});
