/**
 * Report output benchmark (issue 33). The app as `npm start` runs it (the built server, a primary and one worker per
 * core, a fresh SQLite data folder); this process is the client. It brings `--reports` cases to a signed report
 * through the lab's and the doctors' own API calls, keeps one more report as a draft, then times:
 *   - the draft's PDF (rendered on each call, as the editor's preview shows it) and its PNG preview (rendered, then
 *     drawn by pdftoppm), against the signed report's PDF (its stored document: what serving costs without rendering);
 *   - a batch print of all the signed reports (one merged PDF, each recorded as printed), against fetching the same
 *     signed PDFs one by one.
 * The first call of each is reported apart (fonts and templates load once per process).
 *
 *   npm run build && node --import tsx scripts/bench/report-output.ts [--reports 50] [--runs 30]
 *
 * Targets: preview and PDF p95 ≤ 300 ms after the first; the batch print of 50 ≤ 10 s.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { caseAtFirstDiagnosis, type Send } from '../../tests/api/diagnosis-setup.js';
import { loginSession, request } from '../../tests/api/server-process.js';
import { startAppProcess } from '../../tests/process/app-process.js';

const { values: args } = parseArgs({ args: process.argv.slice(2), options: {
  reports: { type: 'string', default: '50' }, runs: { type: 'string', default: '30' },
} });
const REPORTS = Number(args.reports);
const RUNS = Number(args.runs);
const USERS = ['registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor', 'signer'] as const;

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const row = (name: string, xs: number[], base?: number[]) => {
  const [p50, p95] = [pct(xs, 0.5), pct(xs, 0.95)];
  const ratio = base ? `  ${(p95 / pct(base, 0.95)).toFixed(1)}× baseline p95` : '';
  console.log(`${name.padEnd(34)} p50 ${p50.toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms${ratio}`);
};

// WORKERS as npm start leaves it: one per core.
const app = await startAppProcess({ WORKERS: String(os.availableParallelism()) });
try {
  const token: Record<string, string> = {};
  let primaryId = 0;
  for (const u of USERS) {
    const s = await loginSession(app.base, u, DEMO_PASSWORDS.others);
    token[u] = s.token;
    if (u === 'primary') primaryId = s.userId;
  }
  const headers = (who: string) => ({ authorization: `Bearer ${token[who]}`, 'user-language': 'zh-CN' });
  const send: Send = async (who, method, url, payload) => {
    const body = payload === undefined ? undefined : Buffer.from(JSON.stringify(payload));
    const res = await request(app.base, method, url, { ...headers(who), ...(body ? { 'content-type': 'application/json' } : {}) }, body);
    if (res.status !== 200) throw new Error(`${method} ${url} as ${who}: ${res.status} ${res.body.toString().slice(0, 300)}`);
    return res.json().data;
  };
  const get = async (who: string, url: string) => {
    const t0 = process.hrtime.bigint();
    const res = await request(app.base, 'GET', url, headers(who));
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${res.body.toString().slice(0, 300)}`);
    return { time: ms(t0), bytes: res.body.length };
  };
  const report = async (caseId: number, n: number) => send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, {
    report_type: 1, gross_description: `灰白组织${n}块，大小约 0.${n % 9 + 1}×0.3×0.2 cm`, diagnosis: '（胃窦）慢性浅表性胃炎，伴轻度肠上皮化生', microscopic: '镜下见胃黏膜慢性炎细胞浸润。',
  }) as Promise<{ id: number; version: number }>;

  const t0 = process.hrtime.bigint();
  const signed: number[] = [];
  for (let n = 1; n <= REPORTS; n++) {
    const caseId = await caseAtFirstDiagnosis(send, primaryId, { patient_name: `输出${n}`, gender: n % 2 ? 'female' : 'male', age: 30 + n, age_unit: 'year' });
    let r = await report(caseId, n);
    for (const [who, action] of [['primary', 'submit'], ['auditor', 'approve'], ['signer', 'sign']] as const) {
      r = await send(who, 'POST', `/api/diagnosis/reports/${r.id}/actions/${action}`, { version: r.version, ...(action === 'sign' ? { issue: 'now' } : {}) }) as typeof r;
    }
    signed.push(r.id);
  }
  const draft = (await report(await caseAtFirstDiagnosis(send, primaryId), 0)).id;
  console.log(`${REPORTS} signed reports and a draft in ${(ms(t0) / 1000).toFixed(1)} s; ${os.availableParallelism()} workers; load average ${os.loadavg()[0].toFixed(1)}`);

  const first = { pdf: await get('primary', `/api/diagnosis/reports/${draft}/pdf`), preview: await get('primary', `/api/diagnosis/reports/${draft}/preview`) };
  console.log(`first draft PDF ${first.pdf.time.toFixed(0)} ms (${first.pdf.bytes} bytes), first preview ${first.preview.time.toFixed(0)} ms`);
  const times = { pdf: [] as number[], preview: [] as number[], stored: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    times.pdf.push((await get('primary', `/api/diagnosis/reports/${draft}/pdf`)).time);
    times.preview.push((await get('primary', `/api/diagnosis/reports/${draft}/preview`)).time);
    times.stored.push((await get('signer', `/api/diagnosis/reports/${signed[i % signed.length]}/pdf`)).time);
  }
  row('signed PDF (stored; baseline)', times.stored);
  row('draft PDF (rendered)', times.pdf, times.stored);
  row('draft preview (rendered + PNG)', times.preview, times.stored);

  const one = process.hrtime.bigint();
  for (const id of signed) await get('signer', `/api/diagnosis/reports/${id}/pdf`);
  const oneByOne = ms(one);
  const batch = process.hrtime.bigint();
  const res = await request(app.base, 'POST', '/api/diagnosis/reports/print-batch', { ...headers('signer'), 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ ids: signed })));
  const batchMs = ms(batch);
  if (res.status !== 200) throw new Error(`batch print: ${res.status} ${res.body.toString().slice(0, 300)}`);
  console.log(`batch print of ${signed.length}: ${(batchMs / 1000).toFixed(2)} s (${(res.body.length / 1e6).toFixed(1)} MB); the same PDFs one by one ${(oneByOne / 1000).toFixed(2)} s (${(batchMs / oneByOne).toFixed(1)}×)`);
} finally {
  await app.cleanup();
}
