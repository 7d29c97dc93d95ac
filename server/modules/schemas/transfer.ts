import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { ok } from '../../http/envelope.js';
import type { TypedApp } from '../../http/types.js';
import type { ContractStore, LayeredStore, MenuStore, RuleStore, SchemaStore } from './store.js';
import { okResponse } from '../../http/responses.js';

/**
 * A hospital's whole configuration as one file: its current overrides of every page, rule set and resource
 * contract, and its menu changes (`menus`; a file without them is read as having none), so an implementer can carry what they set up in a test hospital to a live one. The file names its
 * format and version and carries a checksum of its documents; an import checks the checksum and every
 * document against the live bases (as a save would), and then saves all of them in one transaction, or none.
 * The checksum catches a file edited by hand or damaged on the way; it is not a signature.
 */
export const CONFIG_FORMAT = 'dsms-hospital-config';
export const CONFIG_VERSION = 1;
const KINDS = ['pages', 'rules', 'contracts', 'menus'] as const;
type Kind = (typeof KINDS)[number];
type Documents = Record<Kind, Record<string, Record<string, unknown>>>;
export interface ConfigFile { format: string; formatVersion: number; exportedAt: string; hospitalId: number; documents: Documents; checksum: string }
type Problem = { path: string; message: string };

/** JSON with object keys sorted, so the checksum does not depend on how a tool reorders keys. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v);
}
export const checksumOf = (documents: unknown) => `sha256:${createHash('sha256').update(canonical(documents)).digest('hex')}`;

const Docs = Type.Record(Type.String({ maxLength: 64 }), Type.Record(Type.String({ maxLength: 128 }), Type.Unknown(), { maxProperties: 200 }), { maxProperties: 300 });
const ConfigBody = Type.Object({
  format: Type.String({ maxLength: 64 }),
  formatVersion: Type.Integer({ minimum: 0, maximum: 1000 }),
  exportedAt: Type.Optional(Type.String({ maxLength: 64 })),
  hospitalId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  documents: Type.Object({ pages: Type.Optional(Docs), rules: Type.Optional(Docs), contracts: Type.Optional(Docs), menus: Type.Optional(Docs) }, { additionalProperties: false }),
  checksum: Type.String({ maxLength: 128 }),
});
const EDIT = { access: { permission: 'schema_edit' } } as const;

export function transferRoutes(app: TypedApp, db: Db, pages: SchemaStore, rules: RuleStore, contracts: ContractStore, menus?: MenuStore): void {
  const kinds = KINDS.filter((k) => k !== 'menus' || menus);
  const stores = { pages, rules, contracts, menus } as unknown as Record<Kind, LayeredStore<object>>;
  const hospital = (r: { auth?: { hospitalId: number | null } | null }) => r.auth!.hospitalId ?? 0;

  app.get('/api/schema-config/export', { config: EDIT, schema: { tags: ['schemas'], response: okResponse() } }, async (r) => {
    const documents = Object.fromEntries(await Promise.all(kinds.map(async (k) => [k, await stores[k].overrides(hospital(r))] as const))) as Documents;
    const file: ConfigFile = { format: CONFIG_FORMAT, formatVersion: CONFIG_VERSION, exportedAt: new Date().toISOString(), hospitalId: hospital(r), documents, checksum: checksumOf(documents) };
    return ok(file);
  });

  /**
   * What importing `file` would do for the hospital: its problems (any refuses the whole file) and, per kind, the
   * documents it sets (changed) and those it sends back to their base (the file does not carry them).
   */
  const plan = async (hospitalId: number, file: typeof ConfigBody.static) => {
    const documents: Documents = { pages: {}, rules: {}, contracts: {}, menus: {}, ...file.documents } as Documents;
    const problems: Problem[] = [];
    if (file.format !== CONFIG_FORMAT) problems.push({ path: 'format', message: `must be "${CONFIG_FORMAT}"` });
    if (file.formatVersion !== CONFIG_VERSION) problems.push({ path: 'formatVersion', message: `must be ${CONFIG_VERSION}` });
    if (file.checksum !== checksumOf(file.documents)) problems.push({ path: 'checksum', message: 'does not match the documents: the file was changed after export' });
    for (const kind of kinds) {
      for (const [key, override] of Object.entries(documents[kind])) {
        if (!stores[kind].bases.has(key)) problems.push({ path: `${kind}/${key}`, message: 'no such document here' });
        else if (kind !== 'rules') problems.push(...(await stores[kind].problems(key, hospitalId, override)).map((p) => ({ path: `${kind}/${key}${p.path}`, message: p.message })));
      }
    }
    if (Object.keys(documents.rules).every((k) => rules.bases.has(k))) problems.push(...rules.checkAll(documents.rules).map((p) => ({ path: `rules/${p.path}`, message: p.message })));
    if (problems.length) {
      throw new AppError(422, 'config.invalid', { detail: problems.slice(0, 3).map((p) => `${p.path} ${p.message}`).join('; ') },
        Object.fromEntries(problems.map((p) => [p.path, [{ key: 'config.problem', params: { detail: p.message } }]])));
    }
    // The hospital's configuration becomes the file's: a document the file does not carry goes back to its base.
    const changes: Record<Kind, Record<string, unknown>> = { pages: {}, rules: {}, contracts: {}, menus: {} };
    for (const kind of kinds) {
      const current = await stores[kind].overrides(hospitalId);
      for (const [key, override] of Object.entries(documents[kind])) if (canonical(override) !== canonical(current[key] ?? {})) changes[kind][key] = override;
      for (const key of Object.keys(current)) if (!(key in documents[kind])) changes[kind][key] = {};
    }
    const summary = Object.fromEntries(kinds.map((k) => [k, Object.entries(changes[k])
      .map(([key, o]) => ({ key, change: Object.keys(o as object).length ? 'set' : 'reset' }))
      .sort((a, b) => a.key.localeCompare(b.key))]));
    return { changes, summary };
  };

  // Nothing is written: the import dialog shows what the file would change before the administrator confirms.
  app.post('/api/schema-config/import/preview', { config: { ...EDIT, audit: false }, schema: { tags: ['schemas'], body: ConfigBody, response: okResponse() } }, async (r) => {
    const { summary } = await plan(hospital(r), r.body);
    return ok({ hospitalId: r.body.hospitalId ?? null, exportedAt: r.body.exportedAt ?? null, changes: summary });
  });

  app.post('/api/schema-config/import', { config: EDIT, schema: { tags: ['schemas'], body: ConfigBody, response: okResponse() } }, async (r) => {
    const hospitalId = hospital(r);
    const file = r.body;
    const { changes } = await plan(hospitalId, file);
    const note = `import (${file.exportedAt ?? '?'}, hospital ${file.hospitalId ?? '?'})`.slice(0, 500);
    await db.transaction().execute(async (trx) => {
      for (const kind of kinds) await stores[kind].insertChecked(trx, hospitalId, changes[kind], r.auth!.name, note);
    });
    for (const name of Object.keys(changes.contracts)) await contracts.indexAdded(name, hospitalId);
    return ok({ changed: Object.fromEntries(kinds.map((k) => [k, Object.keys(changes[k]).sort()])) });
  });
}
