import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { labelReadings } from '../../../src/core/labelCode.js';
import { caseIdByNumber } from './lookup.js';
import { okResponse } from '../../http/responses.js';

/**
 * Spec §7 common: GET /pathology/get_id_by_number/{number}: a pathology number typed or scanned, to its case; a
 * scanned cassette or slide label's code (src/core/labelCode.ts) finds its case too (Quick open).
 */
export function caseRoutes(app: TypedApp, db: Db): void {
  app.get('/api/pathology/get_id_by_number/:number', {
    config: { access: { permission: 'case_view' }, audit: false },
    schema: {
      tags: ['resource:cases'],
      params: Type.Object({ number: Type.String({ minLength: 1, maxLength: 128 }) }),
      querystring: Type.Object({ is_not_frozen: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1')])) }), response: okResponse()
    },
  }, async (request) => {
    const { number } = request.params;
    const { is_not_frozen: notFrozen } = request.query;
    const code = number.trim();
    let id = await caseIdByNumber(db, workingHospital(request), code, notFrozen === '1');
    for (const reading of labelReadings(code).slice(1)) {
      if (id !== null) break;
      id = await caseIdByNumber(db, workingHospital(request), reading.number, notFrozen === '1');
    }
    if (id === null) throw new AppError(404, 'case.not_found_by_number', { number });
    return ok({ id });
  });
}
