import type { Kysely } from 'kysely';
import { frozenBase } from './frozen/page-language-2-base.js';
import { convertOverride, convertRuleVars } from './frozen/page-language-2.js';

type Row = { id: number; kind: string; alias: string; hospital_id: number; version: number; override: string; note: string | null };

/**
 * The second page language (frozen/page-language-2.ts): every stored page override, each
 * version (so a rollback to an old one still works), is rewritten in it; what a hospital's form added to a
 * resource's fields becomes the first version of that hospital's contract extension (kind 'resource'),
 * taken from its current page override; what the new language cannot say is named in the version's note.
 * The search-operators rule set's data became `{ widget, field }`; its overrides follow. The base pages and
 * resources it converts against are the frozen snapshot of that release (frozen/page-language-2-base.json).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const rows = (await db.selectFrom('page_schema_versions').select(['id', 'kind', 'alias', 'hospital_id', 'version', 'override', 'note'])
    .where('kind', 'in', ['page', 'rule']).orderBy('version').execute()) as Row[];
  // The current (highest) version of each page override per hospital: its form additions make the extension.
  const current = new Map<string, { resource: string; hospital: number; version: number; extension?: Record<string, unknown> }>();

  for (const row of rows) {
    const override = JSON.parse(row.override);
    if (row.kind === 'rule') {
      if (row.alias !== 'search-operators') continue;
      await db.updateTable('page_schema_versions').set({ override: JSON.stringify(convertRuleVars(override)) }).where('id', '=', row.id).execute();
      continue;
    }
    const base = frozenBase(row.alias);
    const converted = convertOverride(override, base.context);
    const note = converted.dropped.length ? [row.note, `page language 2: ${converted.dropped.join('; ')}`].filter(Boolean).join(' | ') : row.note;
    await db.updateTable('page_schema_versions').set({ override: JSON.stringify(converted.override), note }).where('id', '=', row.id).execute();
    if (base.extends) current.set(`${row.alias}|${row.hospital_id}`, { resource: base.extends, hospital: row.hospital_id, version: row.version, extension: converted.extension });
  }
  // Several pages of one resource (the slide lists) may each have added fields: their additions join.
  const extensions = new Map<string, { resource: string; hospital: number; extension: Record<string, any> }>();
  for (const c of current.values()) {
    if (!c.extension) continue;
    const key = `${c.resource}|${c.hospital}`;
    const into = extensions.get(key)?.extension ?? {};
    const ext = c.extension as Record<string, any>;
    extensions.set(key, { resource: c.resource, hospital: c.hospital, extension: {
      ...into, ...ext,
      fields: { ...into.fields, ...ext.fields },
      required: [...new Set([...(into.required ?? []), ...(ext.required ?? [])])],
      rules: { ...into.rules, ...ext.rules },
    } });
  }
  const now = new Date().toISOString();
  for (const e of extensions.values()) {
    await db.insertInto('page_schema_versions').values({
      kind: 'resource', alias: e.resource, hospital_id: e.hospital, version: 1, override: JSON.stringify(e.extension),
      note: 'page language 2: the fields and rules this hospital\'s forms added', created_by: 'migration', created_at: now,
    }).execute();
  }
}

/** The first language is not written back: the converted versions stay, and the extensions go. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('page_schema_versions').where('kind', '=', 'resource').execute();
}
