import { Type } from '@sinclair/typebox';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import type { DiagnosisDeps } from './deps.js';
import { REPORT_PARAMETERS, templateParameters } from './word.js';
import { okResponse } from '../../http/responses.js';

const tags = ['config'];
const SETTING = { access: { permission: 'system_setting' } } as const;
const MAX_DOCX_BASE64 = 7_000_000; // about 5 MB of .docx
const Name = Type.String({ minLength: 1, maxLength: 128 });
const FileFields = {
  file_name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\.docx$' }),
  data: Type.String({ minLength: 1, maxLength: MAX_DOCX_BASE64, pattern: '^[A-Za-z0-9+/=]+$', description: 'the .docx, base64' }),
};

/**
 * Spec §7 report configuration beyond the generic resource routes (`config/report/template` lists and update/{id},
 * `config/report/key`, `config/struct/report` lists are schemas/resources): the Word template calls, the structured
 * report's rank and batch store, and the report rules (`config/dict/rule`), whose unparseable JSON reads as empty.
 */
export function reportConfigRoutes(app: TypedApp, deps: DiagnosisDeps): void {
  const db = deps.db;
  const inHospital = async (id: number, hospitalId: number) => {
    const row = await db.selectFrom('report_templates').select(['id', 'word_file', 'key_words_list']).where('id', '=', id).where('hospital_id', '=', hospitalId).executeTakeFirst();
    if (!row) throw new AppError(404, 'diagnosis.template_not_found');
    return row;
  };
  /** Reads the parameters out of the uploaded .docx (422 when it is no Word file). */
  const parsed = async (data: string) => {
    const docx = Buffer.from(data, 'base64');
    return { docx, params: await templateParameters(docx) };
  };

  // A Word file for an existing template (replaces its file and parameters).
  app.post('/api/config/report/template/word/file/upload', { config: SETTING, schema: { tags, body: Type.Object({ id: Type.Integer({ minimum: 1 }), ...FileFields }, { additionalProperties: false }), response: okResponse() } }, async (r) => {
    const t = await inHospital(r.body.id, workingHospital(r));
    const { params } = await parsed(r.body.data);
    await db.updateTable('report_templates').set({ word_file: r.body.data, word_file_name: r.body.file_name, key_words_list: JSON.stringify(params), is_word_template: 1, updated_at: new Date().toISOString() }).where('id', '=', t.id).execute();
    return ok({ id: t.id, key_words_list: params });
  });

  // The parameters a template uses and those a report offers.
  app.get('/api/config/report/template/word/param', {
    config: { access: { permission: 'case_view' }, audit: false }, schema: { tags, querystring: Type.Object({ id: Type.Optional(Type.Integer({ minimum: 1 })) }), response: okResponse() },
  }, async (r) => {
    const used = r.query.id ? JSON.parse((await inHospital(r.query.id, workingHospital(r))).key_words_list ?? '[]') as string[] : [];
    const keys = await db.selectFrom('report_keys').select(['key', 'label', 'source']).where('hospital_id', '=', workingHospital(r)).execute();
    return ok({ key_words_list: used, available: [...REPORT_PARAMETERS], keys });
  });

  app.post('/api/config/report/template/word/report/create', {
    config: SETTING, schema: { tags, body: Type.Object({ template_name: Name, type: Type.Union(['routine', 'frozen', 'cell'].map((t) => Type.Literal(t))), sub_type: Type.Optional(Type.String({ maxLength: 32 })), ...FileFields }, { additionalProperties: false }), response: okResponse() },
  }, async (r) => {
    const { params } = await parsed(r.body.data);
    const now = new Date().toISOString();
    const { id } = await db.insertInto('report_templates').values({
      hospital_id: workingHospital(r), template_name: r.body.template_name, type: r.body.type, sub_type: r.body.sub_type ?? null, is_word_template: 1, layout: null,
      word_file: r.body.data, word_file_name: r.body.file_name, key_words_list: JSON.stringify(params), created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    return ok({ id, key_words_list: params });
  });

  app.patch('/api/config/report/template/word/report/update', {
    config: SETTING, schema: { tags, body: Type.Object({ id: Type.Integer({ minimum: 1 }), template_name: Type.Optional(Name), sub_type: Type.Optional(Type.String({ maxLength: 32 })), ...Type.Partial(Type.Object(FileFields)).properties }, { additionalProperties: false }), response: okResponse() },
  }, async (r) => {
    const t = await inHospital(r.body.id, workingHospital(r));
    const file = r.body.data ? { ...await parsed(r.body.data), name: r.body.file_name ?? 'template.docx' } : null;
    await db.updateTable('report_templates').set({
      ...(r.body.template_name ? { template_name: r.body.template_name } : {}), ...(r.body.sub_type !== undefined ? { sub_type: r.body.sub_type } : {}),
      ...(file ? { word_file: r.body.data, word_file_name: file.name, key_words_list: JSON.stringify(file.params) } : {}), updated_at: new Date().toISOString(),
    }).where('id', '=', t.id).execute();
    return ok({ id: t.id });
  });

  app.delete('/api/config/report/template/word/report/delete', { config: SETTING, schema: { tags, body: Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }), response: okResponse() } }, async (r) => {
    const t = await inHospital(r.body.id, workingHospital(r));
    await db.deleteFrom('report_templates').where('id', '=', t.id).execute();
    return ok({ id: t.id });
  });

  // Structured report fields: order and a batch of new fields at once.
  app.patch('/api/config/struct/report/rank/:id', {
    config: SETTING, schema: { tags, params: Type.Object({ id: Type.Integer({ minimum: 1 }) }), body: Type.Object({ rank: Type.Integer({ minimum: 0, maximum: 1_000_000 }) }, { additionalProperties: false }), response: okResponse() },
  }, async (r) => {
    const res = await db.updateTable('report_structs').set({ rank: r.body.rank, updated_at: new Date().toISOString() }).where('id', '=', r.params.id).where('hospital_id', '=', workingHospital(r)).executeTakeFirst();
    if (!Number(res.numUpdatedRows)) throw new AppError(404, 'error.not_found');
    return ok({ id: r.params.id, rank: r.body.rank });
  });
  app.post('/api/config/struct/report/batchStore', {
    config: SETTING,
    schema: { tags, body: Type.Object({ items: Type.Array(Type.Object({ name: Name, field: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z_]+$' }), type: Type.Optional(Type.Union(['text', 'textarea', 'image', 'qrcode', 'logo', 'signature'].map((t) => Type.Literal(t)))), rank: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })) }, { additionalProperties: false }), { minItems: 1, maxItems: 200 }) }, { additionalProperties: false }), response: okResponse() },
  }, async (r) => {
    const now = new Date().toISOString();
    const rows = r.body.items.map((i, n) => ({ hospital_id: workingHospital(r), name: i.name, field: i.field, type: i.type ?? 'text', rank: i.rank ?? n, created_at: now, updated_at: now }));
    const ids = await db.insertInto('report_structs').values(rows).returning('id').execute();
    return ok({ ids: ids.map((i) => i.id) });
  });

  // Report rules: JSON per type ("<type>_rules"); what cannot be parsed reads as empty (spec §5).
  const RuleType = Type.String({ minLength: 7, maxLength: 64, pattern: '^[a-z0-9_]+_rules$' });
  app.get('/api/config/dict/rule/lists', { config: { access: { permission: 'case_view' }, audit: false }, schema: { tags, querystring: Type.Object({ type: RuleType }), response: okResponse() } }, async (r) => {
    const rows = await db.selectFrom('dict_rules').selectAll().where('hospital_id', '=', workingHospital(r)).where('type', '=', r.query.type).execute();
    return ok(rows.map((row) => ({ id: row.id, type: row.type, result: parseOr(row.result, {}), rules: parseOr(row.rules, []) })));
  });
  app.post('/api/config/dict/rule/batchStore', {
    config: SETTING,
    schema: { tags, body: Type.Object({ items: Type.Array(Type.Object({ type: RuleType, result: Type.String({ maxLength: 100_000 }), rules: Type.String({ maxLength: 100_000 }) }, { additionalProperties: false }), { minItems: 1, maxItems: 50 }) }, { additionalProperties: false }), response: okResponse() },
  }, async (r) => {
    const hospitalId = workingHospital(r);
    const now = new Date().toISOString();
    await db.transaction().execute(async (trx) => {
      for (const item of r.body.items) {
        await trx.deleteFrom('dict_rules').where('hospital_id', '=', hospitalId).where('type', '=', item.type).execute();
        await trx.insertInto('dict_rules').values({ hospital_id: hospitalId, type: item.type, result: item.result, rules: item.rules, created_at: now, updated_at: now }).execute();
      }
    });
    return ok({ stored: r.body.items.length });
  });
}

/** Spec §5: rule JSON that cannot be parsed falls back to an empty result and rules. */
function parseOr<T>(text: string | null, empty: T): unknown {
  if (!text) return empty;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return empty;
  }
}
