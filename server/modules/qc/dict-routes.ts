import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { dictEntriesOf, dictLists, rankDictEntry, storeDictEntries, updateDictEntries } from './dict-queries.js';
import { okResponse } from '../../http/responses.js';

const tags = ['qc-dict'];
/** A list's name: specimen_rejection, infectious_specimen, special_advice, cassette_reprint, report_class, timeout_reason, fixation, … */
const DictType = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_]*$' });
const Name = Type.String({ minLength: 1, maxLength: 255 });
const Rank = Type.Integer({ minimum: 0, maximum: 1_000_000 });
const NewEntry = Type.Object({
  name: Name, en_name: Type.Optional(Type.String({ maxLength: 255 })), code: Type.Optional(Type.String({ maxLength: 64 })), rank: Type.Optional(Rank),
}, { additionalProperties: false });
const Change = Type.Object({
  id: Type.Integer({ minimum: 1 }), name: Type.Optional(Name), en_name: Type.Optional(Type.String({ maxLength: 255 })),
  code: Type.Optional(Type.String({ maxLength: 64 })), rank: Type.Optional(Rank), enabled: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
}, { additionalProperties: false });
const READ = { access: 'user' as const, audit: false };
const WRITE = { access: { permission: 'qc_manage' } };
const CHANGE_METHODS: ['PATCH', 'POST'] = ['PATCH', 'POST'];

/**
 * The QC dictionary of spec §7 (`config/dict/qc`): the hospital's own lists (rejection reasons, special advice,
 * timeout reasons, …), each ranked; `update_many` and `rank/{id}` are PATCH as in the spec (POST too). Read by anyone
 * working in the hospital (forms offer them); changed with `qc_manage`. Another hospital's entries are as absent as
 * missing ones.
 */
export function qcDictRoutes(app: TypedApp, db: Db): void {
  app.get('/api/config/dict/qc/lists', { config: READ, schema: { tags, querystring: Type.Object({ type: Type.Optional(DictType) }), response: okResponse() } }, async (request) => {
    return ok(await dictLists(db, workingHospital(request), request.query.type));
  });

  app.post('/api/config/dict/qc/store_many', {
    config: WRITE, schema: { tags, body: Type.Object({ type: DictType, items: Type.Array(NewEntry, { minItems: 1, maxItems: 200 }) }, { additionalProperties: false }), response: okResponse() },
  }, async (request) => {
    const hospitalId = workingHospital(request);
    const { type, items } = request.body;
    const stored = await storeDictEntries(db, hospitalId, type, items);
    if ('clash' in stored) throw new AppError(422, 'qc_dict.duplicate', { type, names: stored.clash.join('、') });
    return ok({ ids: stored.ids });
  });

  // Spec §7 has update_many and rank as PATCH; POST, as they were first declared, stays for callers written against it.
  app.route({
    method: CHANGE_METHODS,
    url: '/api/config/dict/qc/update_many',
    config: WRITE,
    schema: { tags, body: Type.Object({ items: Type.Array(Change, { minItems: 1, maxItems: 200 }) }, { additionalProperties: false }), response: okResponse() },
    handler: async (request) => {
      const hospitalId = workingHospital(request);
      const { items } = request.body;
      const ids = [...new Set(items.map((i) => i.id))];
      const found = await dictEntriesOf(db, hospitalId, ids);
      const missing = ids.filter((id) => !found.some((f) => f.id === id));
      if (missing.length) throw new AppError(404, 'qc_dict.not_found', { ids: missing.join(', ') });
      // All or nothing: a list half renamed is worse than a refused request.
      await updateDictEntries(db, hospitalId, items);
      return ok({ updated: ids.length });
    },
  });

  app.route({
    method: CHANGE_METHODS,
    url: '/api/config/dict/qc/rank/:id',
    config: WRITE,
    schema: { tags, params: Type.Object({ id: Type.Integer({ minimum: 1 }) }), body: Type.Object({ rank: Rank }, { additionalProperties: false }), response: okResponse() },
    handler: async (request) => {
      const hospitalId = workingHospital(request);
      if (!(await rankDictEntry(db, hospitalId, request.params.id, request.body.rank))) throw new AppError(404, 'qc_dict.not_found', { ids: String(request.params.id) });
      return ok({ id: request.params.id, rank: request.body.rank });
    },
  });
}
