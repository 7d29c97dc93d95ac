import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { newScannerKey } from './keys.js';
import { sweepOffline } from './queries.js';
import { okResponse } from '../../http/responses.js';

const Id = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }) });
const tags = ['resource:scanners'];
/** How often silent scanners are looked for: a scanner is shown offline at most this long after its minute is up. */
export const SWEEP_MS = 10_000;

/**
 * A scanner's API key, issued (or reissued, which ends the old one) and revoked by an operator of its hospital
 * (`scanner_operate`). The key is answered once and kept only as a hash. The scanners themselves are a resource
 * (schemas/resources/scanners.json: list, edit); the sweep turns silent scanners offline.
 */
export function scannerAdminRoutes(app: TypedApp, db: Db): void {
  const mine = async (id: number, hospitalId: number) => {
    const row = await db.selectFrom('scanners').select(['id', 'name']).where('id', '=', id).where('hospital_id', '=', hospitalId).executeTakeFirst();
    if (!row) throw new AppError(404, 'scanner.not_found');
    return row;
  };

  app.post('/api/scanner/key/:id', {
    config: { access: { permission: 'scanner_operate' } },
    schema: { tags, params: Id, response: okResponse() },
  }, async (request) => {
    const scanner = await mine(request.params.id, workingHospital(request));
    const { key, hash, prefix } = newScannerKey();
    const at = new Date().toISOString();
    await db.updateTable('scanners').set({ key_hash: hash, key_prefix: prefix, key_revoked_at: null, updated_at: at }).where('id', '=', scanner.id).execute();
    return ok({ id: scanner.id, key, key_prefix: prefix });
  });

  app.delete('/api/scanner/key/:id', {
    config: { access: { permission: 'scanner_operate' } },
    schema: { tags, params: Id, response: okResponse() },
  }, async (request) => {
    const scanner = await mine(request.params.id, workingHospital(request));
    const at = new Date().toISOString();
    await db.updateTable('scanners').set({ key_revoked_at: at, updated_at: at }).where('id', '=', scanner.id).execute();
    return ok({ id: scanner.id, key_revoked_at: at });
  });

  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => { void sweepOffline(db).catch((err: unknown) => app.log.warn({ err }, 'scanner sweep failed')); }, SWEEP_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
