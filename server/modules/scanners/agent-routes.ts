import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import { SCAN_RESULTS, SCANNER_STATUSES, scanDuration } from '../../../src/core/scannerStatus.js';
import { agentScanner } from './agent-auth.js';
import { bindScan } from './bind.js';
import { heartbeat } from './queries.js';
import { finishScan, rescanQueue, scanOf, startScan } from './scan-queries.js';
import { okResponse } from '../../http/responses.js';
import type { AreaStorages } from '../../storage/area-storages.js';

const tags = ['scanner-agent'];
const security = [{ scannerKey: [] }];
const HeartbeatBody = Type.Object({
  status: Type.Union(SCANNER_STATUSES.filter((s) => s !== 'offline').map((s) => Type.Literal(s))),
  message: Type.Optional(Type.String({ maxLength: 500 })),
});
const ScanBody = Type.Object({
  barcode: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  scan_level: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  scale: Type.Optional(Type.Number({ minimum: 0, maximum: 1000 })),
});
const FinishBody = Type.Object({
  result: Type.Union(SCAN_RESULTS.filter((r) => r !== 'not_scanned').map((r) => Type.Literal(r))),
  message: Type.Optional(Type.String({ maxLength: 500 })),
  /** The `path` the chunked upload answered once complete; with `scanned`, the slide to bind. */
  path: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});
const Id = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }) });

/**
 * What a scanner calls with its own key (`X-Scanner-Key`; agent-auth.ts): its heartbeat, and its scans from label to
 * bound slide. A scanner sees and changes only its own scans (another's answers 404, as a missing one does).
 * Heartbeats stay out of the operation log (one every few seconds per scanner); state changes are on the row.
 */
export function agentRoutes(app: TypedApp, db: Db, areas: AreaStorages): void {
  app.post('/api/scanner-agent/heartbeat', {
    config: { access: 'public', audit: false },
    schema: { tags, security, body: HeartbeatBody, response: okResponse() },
  }, async (request) => {
    const scanner = await agentScanner(db, request);
    await heartbeat(db, scanner.id, request.body.status, request.body.message ?? null);
    // What QC sent back for a new scan: the scanner's queue.
    const rescan = await rescanQueue(db, scanner.id);
    return ok({ scanner_id: scanner.id, status: request.body.status, rescan });
  });

  app.post('/api/scanner-agent/scans', {
    config: { access: 'public' },
    schema: { tags, security, body: ScanBody, response: okResponse() },
  }, async (request) => {
    const scanner = await agentScanner(db, request);
    const scan = { barcode: request.body.barcode ?? null, scan_level: request.body.scan_level ?? null, scale: request.body.scale ?? null };
    return ok({ id: await startScan(db, scanner, scan, new Date().toISOString()) });
  });

  app.post('/api/scanner-agent/scans/:id/finish', {
    config: { access: 'public' },
    schema: { tags, security, params: Id, body: FinishBody, response: okResponse() },
  }, async (request) => {
    const scanner = await agentScanner(db, request);
    const job = await scanOf(db, request.params.id, scanner.id);
    if (!job) throw new AppError(404, 'scanner.scan_not_found');
    if (job.finished_at) throw new AppError(409, 'scanner.scan_finished');
    const { result, message, path, name } = request.body;
    if (path && result !== 'scanned') throw new AppError(422, 'scanner.path_needs_scanned');
    // The slide first: a bind refused (someone else's upload, a missing file) leaves the scan open to finish again.
    const binding = path ? await bindScan(db, areas, scanner, job, path, name) : null;
    const at = new Date().toISOString();
    if (!(await finishScan(db, job.id, { result, message: message ?? null, at, durationMs: scanDuration(job.started_at, at) }))) throw new AppError(409, 'scanner.scan_finished');
    return ok({ id: job.id, result, ...(binding ?? {}) });
  });
}
