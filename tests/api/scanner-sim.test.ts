import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScannerSim } from '../../scripts/scanner-sim.js';
import { call, databases, startApp, testApp, tokenFor, type Harness } from './harness.js';

/** The scanner simulator against a listening app: it registers itself, scans a demo case's glass slides, and they are bound. */
describe.each(databases)('scanner simulator [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let url: string;

  beforeAll(async () => {
    h = await startApp(kind);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-sim-'));
    app = await testApp(h.db, { dataDir });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('produces slides bound to their demo case, and one not bound', async () => {
    const technician = await tokenFor(app, 'technician');
    const added = await call(app, 'POST', '/api/data/kfb/sectionAdd', { token: technician, payload: { pathology_number: 'P2026-00002', sections: [{ block_number: '1' }, { block_number: '2', stain: 'Ki-67' }] } });
    expect(added.statusCode, added.body).toBe(200);
    const results = await runScannerSim({ url, user: 'scanner', password: 'dsms-demo', name: 'SIM-TEST', cases: ['P2026-00002'], unlabelled: 1, width: 1024, height: 768, log: () => {} });
    const caseId = (await h.db.selectFrom('cases').select('id').where('pathology_number', '=', 'P2026-00002').executeTakeFirstOrThrow()).id;
    const bound = results.filter((r) => r.bind_status === 'bound');
    expect(bound.length).toBeGreaterThanOrEqual(2);
    expect(bound.every((r) => r.case_id === caseId)).toBe(true);
    expect(results.filter((r) => r.bind_status === 'not_bound')).toHaveLength(1);
    const sections = await h.db.selectFrom('slide_sections').select('slide_id').where('case_id', '=', caseId).where('id', 'in', added.json().data.map((s: { id: number }) => s.id)).execute();
    expect(sections.every((s) => s.slide_id !== null)).toBe(true);
    const scanner = await h.db.selectFrom('scanners').select(['status', 'heartbeat_at']).where('name', '=', 'SIM-TEST').executeTakeFirstOrThrow();
    expect(scanner.status).toBe('idle');
    expect(scanner.heartbeat_at).not.toBeNull();
  }, 120_000);
});
