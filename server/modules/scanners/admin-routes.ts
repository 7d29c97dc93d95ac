import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { revokeScannerKey, scannerOf, storeScannerKey } from './key-queries.js';
import { newScannerKey } from './keys.js';
import { okResponse } from '../../http/responses.js';

const Id = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }) });
const tags = ['resource:scanners'];

/**
 * A scanner's API key, issued (or reissued, which ends the old one) and revoked by an operator of its hospital
 * (`scanner_operate`). The key is answered once and kept only as a hash. The scanners themselves are a resource
 * (schemas/resources/scanners.json: list, edit); a scheduled job turns silent scanners offline (offline-job.ts).
 */
export function scannerAdminRoutes(app: TypedApp, db: Db): void {
  const mine = async (id: number, hospitalId: number) => {
    const row = await scannerOf(db, id, hospitalId);
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
    await storeScannerKey(db, scanner.id, { hash, prefix }, at);
    return ok({ id: scanner.id, key, key_prefix: prefix });
  });

  app.delete('/api/scanner/key/:id', {
    config: { access: { permission: 'scanner_operate' } },
    schema: { tags, params: Id, response: okResponse() },
  }, async (request) => {
    const scanner = await mine(request.params.id, workingHospital(request));
    const at = new Date().toISOString();
    await revokeScannerKey(db, scanner.id, at);
    return ok({ id: scanner.id, key_revoked_at: at });
  });
}
