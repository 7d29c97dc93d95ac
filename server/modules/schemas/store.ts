import mergePatch from 'json-merge-patch';
import type { Db } from '../../db/connect.js';
import type { MessageKey } from '../../i18n/messages.js';
import { AppError } from '../../http/errors.js';
import { layerContract, layerOwnContract, type Contract, type ContractExtension } from '../../../src/core/contract.js';
import { checkContractExtension, checkPageSchema } from '../../../src/core/pageSchemaCheck.js';
import { contractForm } from '../../../src/core/resolvePage.js';
import type { FormSchema } from '../../../src/core/pageSchema.js';
import { contractOf, type ResourceDef } from '../../resources/definition.js';
import { addedColumns } from '../../resources/extra-fields.js';
import { ensureExtraIndexes } from '../../resources/extra-indexes.js';
import { ruleResolver, warnOnce, type RuleResolver, type RuleSet, type Warn } from '../../../src/core/rules.js';
import { checkRuleSet } from '../../../src/core/rulesCheck.js';
import type { PageSchema } from './repository.js';
import { menuOverrideProblems, type MenuOverride } from '../../../src/core/menuOverride.js';

export interface Layered<T = PageSchema> { alias: string; version: number; schema: T }
export type StoreKind = 'page' | 'rule' | 'resource' | 'menu';
type Problem = { path: string; message: string };

/** An override is a patch of a schema, not a data dump: the largest base is ~40 KB. */
export const MAX_OVERRIDE_BYTES = 512 * 1024;

interface KindSpec<T> {
  kind: StoreKind;
  notFound: MessageKey;
  invalid: MessageKey;
  /** What is wrong with the merged document saved as `key` for `hospitalId`. */
  check(doc: T, key: string, hospitalId: number): Promise<Problem[]> | Problem[];
}

/**
 * Schemas as the caller's hospital sees them: the repository's base with the hospital's current
 * override (a JSON merge patch) applied. Every save is a new version, checked first; a rollback saves
 * an old override again, so history only grows. One table serves every kind (pages, rule sets).
 */
export class LayeredStore<T extends object> {
  constructor(protected readonly db: Db, readonly bases: Map<string, T>, private readonly spec: KindSpec<T>) {}

  base(key: string): T {
    const base = this.bases.get(key);
    if (!base) throw new AppError(404, this.spec.notFound, { alias: key });
    return base;
  }

  async layered(key: string, hospitalId: number): Promise<Layered<T>> {
    const base = this.base(key);
    const current = await this.current(key, hospitalId);
    return { alias: key, version: current?.version ?? 0, schema: current ? merge(base, current.override) : base };
  }

  /** Every base with the hospital's current override, in one query. */
  async layeredAll(hospitalId: number): Promise<Layered<T>[]> {
    const rows = await this.db.selectFrom('page_schema_versions as v').select(['v.alias', 'v.version', 'v.override'])
      .where('v.kind', '=', this.spec.kind).where('v.hospital_id', '=', hospitalId)
      .where('v.version', '=', (eb) => eb.selectFrom('page_schema_versions as w').select((w) => w.fn.max('w.version').as('m'))
        .whereRef('w.kind', '=', 'v.kind').whereRef('w.alias', '=', 'v.alias').whereRef('w.hospital_id', '=', 'v.hospital_id'))
      .execute();
    const current = new Map(rows.map((r) => [r.alias, r]));
    return [...this.bases].map(([key, base]) => {
      const row = current.get(key);
      return { alias: key, version: row?.version ?? 0, schema: row ? merge(base, JSON.parse(row.override)) : base };
    });
  }

  /** What is wrong with `override` saved as `key` for `hospitalId` (nothing saved): its shape, size and the kind's checks. */
  async problems(key: string, hospitalId: number, override: unknown): Promise<Problem[]> {
    if (!override || typeof override !== 'object' || Array.isArray(override)) return [{ path: '', message: 'override must be a JSON object' }];
    if (Buffer.byteLength(JSON.stringify(override)) > MAX_OVERRIDE_BYTES) return [{ path: '', message: `larger than ${MAX_OVERRIDE_BYTES} bytes` }];
    return this.spec.check(merge(this.base(key), override), key, hospitalId);
  }

  /** The hospital's current non-empty overrides by key (what an export carries). */
  async overrides(hospitalId: number): Promise<Record<string, Record<string, unknown>>> {
    const out: Record<string, Record<string, unknown>> = {};
    for (const key of [...this.bases.keys()].sort()) {
      const current = (await this.current(key, hospitalId))?.override as Record<string, unknown> | undefined;
      if (current && Object.keys(current).length) out[key] = current;
    }
    return out;
  }

  /** Saves already checked overrides as new versions inside the caller's transaction (an import: all or none). */
  async insertChecked(trx: Db, hospitalId: number, overrides: Record<string, unknown>, by: string, note: string): Promise<void> {
    for (const [key, override] of Object.entries(overrides)) {
      const last = await trx.selectFrom('page_schema_versions').select((eb) => eb.fn.max('version').as('m'))
        .where('kind', '=', this.spec.kind).where('alias', '=', key).where('hospital_id', '=', hospitalId).executeTakeFirst();
      await trx.insertInto('page_schema_versions').values({
        kind: this.spec.kind, alias: key, hospital_id: hospitalId, version: Number(last?.m ?? 0) + 1, override: JSON.stringify(override),
        note, created_by: by, created_at: new Date().toISOString(),
      }).execute();
    }
  }

  async save(key: string, hospitalId: number, override: unknown, by: string, note?: string): Promise<Layered<T>> {
    if (!override || typeof override !== 'object' || Array.isArray(override)) {
      throw new AppError(422, this.spec.invalid, { detail: 'override must be a JSON object' });
    }
    const text = JSON.stringify(override);
    if (Buffer.byteLength(text) > MAX_OVERRIDE_BYTES) throw new AppError(422, 'schema.too_large', { limit: MAX_OVERRIDE_BYTES });
    const merged = merge(this.base(key), override);
    const problems = await this.spec.check(merged, key, hospitalId);
    if (problems.length) {
      throw new AppError(422, this.spec.invalid, { detail: problems.slice(0, 3).map((p) => `${p.path} ${p.message}`).join('; ') },
        Object.fromEntries(problems.map((p) => [p.path, [{ key: this.spec.invalid, params: { detail: p.message } }]])));
    }
    // Two editors saving at once compute the same next version; the unique key refuses the second, which takes the next.
    for (let attempt = 1; ; attempt++) {
      const version = ((await this.current(key, hospitalId))?.version ?? 0) + 1;
      try {
        await this.db.insertInto('page_schema_versions').values({
          kind: this.spec.kind, alias: key, hospital_id: hospitalId, version, override: text, note: note ?? null, created_by: by, created_at: new Date().toISOString(),
        }).execute();
        return { alias: key, version, schema: merged };
      } catch (e) {
        if (attempt >= 5 || !/UNIQUE constraint failed|duplicate key value/.test(String((e as Error)?.message))) throw e;
      }
    }
  }

  async rollback(key: string, hospitalId: number, version: number, by: string): Promise<Layered<T>> {
    if (version === 0) return this.save(key, hospitalId, {}, by, 'rollback to base');
    this.base(key);
    const row = await this.rows(key, hospitalId).select('override').where('version', '=', version).executeTakeFirst();
    if (!row) throw new AppError(404, 'schema.version_not_found', { version });
    return this.save(key, hospitalId, JSON.parse(row.override), by, `rollback to ${version}`);
  }

  async versions(key: string, hospitalId: number) {
    this.base(key);
    const rows = await this.rows(key, hospitalId).selectAll().orderBy('version', 'desc').limit(200).execute();
    return rows.map((r) => ({ version: r.version, created_at: r.created_at, created_by: r.created_by, note: r.note, override: JSON.parse(r.override) }));
  }

  private rows(key: string, hospitalId: number) {
    return this.db.selectFrom('page_schema_versions').where('kind', '=', this.spec.kind).where('alias', '=', key).where('hospital_id', '=', hospitalId);
  }

  private async current(key: string, hospitalId: number) {
    const row = await this.rows(key, hospitalId).select(['version', 'override']).orderBy('version', 'desc').executeTakeFirst();
    return row ? { version: row.version, override: JSON.parse(row.override) as unknown } : undefined;
  }
}

/**
 * Rule sets (schemas/rules) layered per hospital. A saved set must pass the meta-schema and the
 * json-logic checks, and its references (and those of the hospital's other sets to it) must resolve.
 */
export class RuleStore extends LayeredStore<RuleSet> {
  constructor(db: Db, bases: Map<string, RuleSet>, private readonly warn: Warn = warnOnce()) {
    super(db, bases, {
      kind: 'rule', notFound: 'rule.not_found', invalid: 'rule.invalid',
      check: async (set, key, hospitalId) => {
        if (set.name !== key) return [{ path: '/name', message: `must stay "${key}"` }];
        return checkRuleSet(set, (await this.layeredAll(hospitalId)).map((l) => l.schema));
      },
    });
  }

  /** What is wrong with the rule sets a hospital would have with `overrides` (by name) over the bases, each checked against all. */
  checkAll(overrides: Record<string, unknown>): Problem[] {
    const sets = [...this.bases].map(([name, base]) => merge(base, overrides[name] ?? {}));
    return sets.flatMap((set, i) => {
      const name = [...this.bases.keys()][i];
      if (set.name !== name) return [{ path: `${name}/name`, message: `must stay "${name}"` }];
      return checkRuleSet(set, sets).map((p) => ({ path: `${name}${p.path}`, message: p.message }));
    });
  }

  /** The hospital's rules by name, for the evaluator in src/core/rules.ts; failures go to the server log. */
  async resolverFor(hospitalId: number): Promise<RuleResolver> {
    return ruleResolver((await this.layeredAll(hospitalId)).map((l) => l.schema), this.warn);
  }
}

/** Page schemas, checked against schemas/meta/page.schema.json; `rules` lets page evaluators resolve rule names. */
export class SchemaStore extends LayeredStore<PageSchema> {
  constructor(db: Db, bases: Map<string, PageSchema>, readonly rules?: RuleStore, readonly enums?: Record<string, { value: unknown }[]>) {
    super(db, bases, {
      kind: 'page', notFound: 'schema.not_found', invalid: 'schema.invalid',
      check: (page, alias) => {
        const problems = checkPageSchema(page);
        if (page.alias !== alias) problems.push({ path: '/alias', message: `must stay "${alias}"` });
        return problems;
      },
    });
  }

  /**
   * The form that checks writes of setting `key`: the contract of the base page whose form edits it
   * (form.source.setting). The base's, not a hospital's layered page: a page override changes how the
   * form looks, never what the server accepts.
   */
  formForSetting(key: string): FormSchema | undefined {
    for (const page of this.bases.values()) {
      const form = page.form as { source?: { setting?: string }; contract?: Contract } | undefined;
      if (form?.source?.setting === key && form.contract) return contractForm(form.contract, this.enums);
    }
    return undefined;
  }

  /** The form that checks writes through a page's own `form.contract` (the account form), from its base page. */
  contractFormOf(alias: string): FormSchema | undefined {
    const contract = (this.base(alias).form as { contract?: Contract } | undefined)?.contract;
    return contract ? contractForm(contract, this.enums) : undefined;
  }

  /** The form a contract checks writes with, the enums' values the only ones accepted. */
  formOfContract(contract: Contract | undefined): FormSchema | undefined {
    return contract ? contractForm(contract, this.enums) : undefined;
  }

  /** The hospital's rule resolver (no rules when the store was built without a rule store). */
  async rulesFor(hospitalId: number): Promise<RuleResolver> {
    return this.rules ? this.rules.resolverFor(hospitalId) : () => undefined;
  }
}

/**
 * Resource contracts as a hospital has extended them (kind 'resource', keyed by resource name): the
 * stored document is the hospital's `ContractExtension` (new fields, more required fields, more rules),
 * checked against the base contract so that it only adds. Read-only resources have none. Every save indexes the
 * fields it adds, so lists filter and sort by them without reading every row's `extra`.
 */
export class ContractStore extends LayeredStore<ContractExtension> {
  private readonly defs: Map<string, ResourceDef>;

  constructor(db: Db, defs: ResourceDef[], readonly rules: RuleStore | undefined, readonly enums?: Record<string, { value: unknown }[]>,
    private readonly warn: Warn = (m) => console.warn(m)) {
    const writable = defs.filter((d) => !d.readOnly);
    super(db, new Map(writable.map((d) => [d.name, {}])), {
      kind: 'resource', notFound: 'contract.not_found', invalid: 'contract.invalid',
      check: (ext, name) => checkContractExtension(ext, contractOf(this.defs.get(name)!)),
    });
    this.defs = new Map(writable.map((d) => [d.name, d]));
  }

  override async save(key: string, hospitalId: number, override: unknown, by: string, note?: string): Promise<Layered<ContractExtension>> {
    const saved = await super.save(key, hospitalId, override, by, note);
    await this.indexAdded(key, hospitalId);
    return saved;
  }

  /**
   * Builds the expression indexes of the fields the hospital's extension of `name` adds (extra-indexes.ts), once the
   * extension is saved (or imported). The save stands whatever happens here: without its index a filter still answers,
   * only slower, so a failed build is logged and built again by the next save.
   */
  async indexAdded(name: string, hospitalId: number): Promise<void> {
    const def = this.defs.get(name);
    if (!def?.extra) return;
    try {
      await ensureExtraIndexes(this.db, def, addedColumns(def, await this.contractFor(def, hospitalId)));
    } catch (e) {
      this.warn(`index of the fields added to ${name}: ${(e as Error).message}`);
    }
  }

  /** Every hospital's added fields indexed (start-up: extensions saved before their fields were indexed get theirs). */
  async indexAllAdded(): Promise<void> {
    const saved = await this.db.selectFrom('page_schema_versions').select(['alias', 'hospital_id']).distinct().where('kind', '=', 'resource').execute();
    for (const { alias, hospital_id } of saved) if (this.bases.has(alias)) await this.indexAdded(alias, hospital_id);
  }

  /** The repository's contract of a resource, for the editor to show beside the extension. */
  baseContract(name: string): Contract {
    this.base(name);
    return contractOf(this.defs.get(name)!);
  }

  async contractFor(def: ResourceDef, hospitalId: number): Promise<Contract> {
    if (def.readOnly) return contractOf(def);
    return layerContract(contractOf(def), (await this.layered(def.name, hospitalId)).schema);
  }

  /**
   * A form's own contract as the hospital has it: with the hospital's extension of the resource the form
   * writes (`form.extends`), so the fields an administrator adds to that resource show and are checked there too.
   */
  async ownContractFor(page: PageSchema, hospitalId: number): Promise<Contract | undefined> {
    const form = page.form as { contract?: Contract; extends?: string } | undefined;
    if (!form?.contract) return undefined;
    if (!form.extends || !this.defs.has(form.extends)) return form.contract;
    return layerOwnContract(form.contract, (await this.layered(form.extends, hospitalId)).schema);
  }

  /** The form every write of the resource is checked with (enum values enforced). */
  async formFor(def: ResourceDef, hospitalId: number): Promise<FormSchema> {
    return contractForm(await this.contractFor(def, hospitalId), this.enums);
  }

  async rulesFor(hospitalId: number): Promise<RuleResolver> {
    return this.rules ? this.rules.resolverFor(hospitalId) : () => undefined;
  }
}

/** The merge patch mutates its target, so the base is copied first. */
const merge = <T>(base: T, override: unknown) => mergePatch.apply<T>(structuredClone(base), override);

/**
 * A hospital's changes to the menu (src/core/menuOverride): one document, `menus`, whose base changes nothing.
 * An entry it names must be one of the menu's (schemas/menus.json, as seeded, and entries added since).
 */
export class MenuStore extends LayeredStore<MenuOverride> {
  static readonly KEY = 'menus';
  constructor(db: Db) {
    super(db, new Map([[MenuStore.KEY, { entries: {} }]]), {
      kind: 'menu', notFound: 'menu.not_found', invalid: 'menu.invalid',
      check: async (doc) => menuOverrideProblems(doc, new Set((await db.selectFrom('menus').select('route_name').execute()).map((r) => r.route_name))),
    });
  }

  /** The hospital's current override (an empty one when it changed nothing). */
  async overrideFor(hospitalId: number): Promise<MenuOverride> {
    return (await this.layered(MenuStore.KEY, hospitalId)).schema;
  }
}

export interface ColumnPreference { prop: string; hidden?: boolean }

export async function getColumnPreferences(db: Db, userId: number, routeKey: string): Promise<ColumnPreference[]> {
  const row = await db.selectFrom('column_preferences').select('columns').where('user_id', '=', userId).where('route_key', '=', routeKey).executeTakeFirst();
  return row ? (JSON.parse(row.columns) as ColumnPreference[]) : [];
}

export async function putColumnPreferences(db: Db, userId: number, routeKey: string, columns: ColumnPreference[]): Promise<void> {
  const values = { user_id: userId, route_key: routeKey, columns: JSON.stringify(columns), updated_at: new Date().toISOString() };
  await db.insertInto('column_preferences').values(values)
    .onConflict((oc) => oc.columns(['user_id', 'route_key']).doUpdateSet({ columns: values.columns, updated_at: values.updated_at }))
    .execute();
}
