import mergePatch from 'json-merge-patch';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { checkPageSchema } from '../../../src/core/pageSchemaCheck.js';
import type { PageSchema } from './repository.js';

export interface Layered { alias: string; version: number; schema: PageSchema }

/**
 * Page schemas as the caller's hospital sees them: the repository's base with the hospital's current
 * override (a JSON merge patch) applied. Every save is a new version, checked against the meta-schema;
 * a rollback saves an old override again, so history only grows.
 */
export class SchemaStore {
  constructor(private readonly db: Db, readonly bases: Map<string, PageSchema>) {}

  base(alias: string): PageSchema {
    const base = this.bases.get(alias);
    if (!base) throw new AppError(404, 'schema.not_found', { alias });
    return base;
  }

  async layered(alias: string, hospitalId: number): Promise<Layered> {
    const base = this.base(alias);
    const current = await this.current(alias, hospitalId);
    return { alias, version: current?.version ?? 0, schema: current ? merge(base, current.override) : base };
  }

  /** The layered page whose form edits setting `key` (form.source.setting), if any. */
  async formForSetting(key: string, hospitalId: number): Promise<PageSchema | undefined> {
    for (const [alias, page] of this.bases) {
      if ((page.form as { source?: { setting?: string } } | undefined)?.source?.setting === key) return (await this.layered(alias, hospitalId)).schema;
    }
    return undefined;
  }

  async save(alias: string, hospitalId: number, override: unknown, by: string, note?: string): Promise<Layered> {
    if (!override || typeof override !== 'object' || Array.isArray(override)) {
      throw new AppError(422, 'schema.invalid', { detail: 'override must be a JSON object' });
    }
    const merged = merge(this.base(alias), override);
    const problems = checkPageSchema(merged);
    if (merged.alias !== alias) problems.push({ path: '/alias', message: `must stay "${alias}"` });
    if (problems.length) {
      throw new AppError(422, 'schema.invalid', { detail: problems.slice(0, 3).map((p) => `${p.path} ${p.message}`).join('; ') },
        Object.fromEntries(problems.map((p) => [p.path, [{ key: 'schema.invalid', params: { detail: p.message } }]])));
    }
    const version = ((await this.current(alias, hospitalId))?.version ?? 0) + 1;
    await this.db.insertInto('page_schema_versions').values({
      alias, hospital_id: hospitalId, version, override: JSON.stringify(override), note: note ?? null, created_by: by, created_at: new Date().toISOString(),
    }).execute();
    return { alias, version, schema: merged };
  }

  async rollback(alias: string, hospitalId: number, version: number, by: string): Promise<Layered> {
    if (version === 0) return this.save(alias, hospitalId, {}, by, 'rollback to base');
    const row = await this.db.selectFrom('page_schema_versions').select('override')
      .where('alias', '=', alias).where('hospital_id', '=', hospitalId).where('version', '=', version).executeTakeFirst();
    if (!row) throw new AppError(404, 'schema.version_not_found', { version });
    return this.save(alias, hospitalId, JSON.parse(row.override), by, `rollback to ${version}`);
  }

  async versions(alias: string, hospitalId: number) {
    this.base(alias);
    const rows = await this.db.selectFrom('page_schema_versions').selectAll()
      .where('alias', '=', alias).where('hospital_id', '=', hospitalId).orderBy('version', 'desc').limit(200).execute();
    return rows.map((r) => ({ version: r.version, created_at: r.created_at, created_by: r.created_by, note: r.note, override: JSON.parse(r.override) }));
  }

  private async current(alias: string, hospitalId: number) {
    const row = await this.db.selectFrom('page_schema_versions').select(['version', 'override'])
      .where('alias', '=', alias).where('hospital_id', '=', hospitalId).orderBy('version', 'desc').executeTakeFirst();
    return row ? { version: row.version, override: JSON.parse(row.override) as unknown } : undefined;
  }
}

/** The merge patch mutates its target, so the base is copied first. */
const merge = (base: PageSchema, override: unknown) => mergePatch.apply<PageSchema>(structuredClone(base), override);

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
