import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { caseAtFirstDiagnosis, type Send } from './diagnosis-setup.js';
import { startFhirReceiver } from './fhir-receiver.js';
import { login, request, restartableServer } from './server-process.js';

/**
 * kill -9 while a sent report is being posted (issue 30): the real server (server/main.ts, one process, SQLite in a
 * temp DATA_DIR, REPORT_OUTBOUND=fhir) posts to a loopback receiver that does not answer; it is killed mid-post and
 * started again. The delivery is a job row written with the send, so after its lease lapses (JOB_LEASE_SECONDS=2)
 * the new process posts the Bundle again: the receiver ends with the report, once.
 */
describe('kill -9 during a FHIR delivery', () => {
  const server = restartableServer('dsms-fhir-crash-');

  it('posts the report after the restart, and the receiver keeps one of it', async () => {
    const receiver = await startFhirReceiver();
    const env = { REPORT_OUTBOUND: 'fhir', FHIR_BASE_URL: receiver.url, FHIR_TOKEN: 'fhir-secret', FHIR_TIMEOUT_MS: '120000' };
    try {
      await server.start(env);
      const tokens: Record<string, string> = {};
      for (const u of ['registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor', 'signer']) tokens[u] = await login(server.base(), u, DEMO_PASSWORDS.others);
      const send: Send = async (who, method, url, payload) => {
        const res = await request(server.base(), method, url, { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' }, payload ? Buffer.from(JSON.stringify(payload)) : undefined);
        if (res.status !== 200) throw new Error(`${method} ${url} as ${who}: ${res.status} ${res.body.toString()}`);
        return res.json().data;
      };
      const primary = await send('primary', 'GET', '/api/account/profile') as { id: number };
      const caseId = await caseAtFirstDiagnosis(send, primary.id, { patient_name: '司马相如', gender: 'male', age: 66, age_unit: 'year' });
      let r = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, diagnosis: '（前列腺穿刺）腺泡腺癌，Gleason 3+4=7' }) as { id: number; version: number };
      for (const [who, action, extra] of [['primary', 'submit', {}], ['auditor', 'approve', {}], ['signer', 'sign', { issue: 'now' }], ['signer', 'send', {}]] as const) {
        r = await send(who, 'POST', `/api/diagnosis/reports/${r.id}/actions/${action}`, { version: r.version, ...extra }) as typeof r;
      }
      // The first post reaches the receiver, which keeps it waiting; the server dies under it.
      receiver.script.push('hang');
      for (const until = Date.now() + 60_000; receiver.requests.length === 0 && Date.now() < until;) await new Promise((res) => setTimeout(res, 50));
      expect(receiver.requests).toHaveLength(1);
      await server.kill9();
      expect(receiver.of('DiagnosticReport')).toHaveLength(0);

      await server.start(env);
      for (const until = Date.now() + 60_000; receiver.of('DiagnosticReport').length === 0 && Date.now() < until;) await new Promise((res) => setTimeout(res, 100));
      expect(receiver.requests).toHaveLength(2);
      expect(receiver.requests[1].raw.equals(receiver.requests[0].raw)).toBe(true);
      expect(receiver.of('DiagnosticReport')).toHaveLength(1);
      expect(receiver.of('DiagnosticReport')[0]).toMatchObject({ conclusion: '（前列腺穿刺）腺泡腺癌，Gleason 3+4=7', subject: { display: '司马相如' } });
      expect(receiver.of('Patient')).toHaveLength(1);
      const delivered = await send('signer', 'GET', `/api/diagnosis/reports/${r.id}/deliveries`) as unknown as { status: string; attempts: number }[];
      expect(delivered).toMatchObject([{ status: 'done', attempts: 2 }]);
    } finally {
      await receiver.close();
    }
  }, 300_000);
});
