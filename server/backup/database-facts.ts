import { placeReferences, type AreaRef } from './area-rules.js';

/**
 * What the manifest says about a database, read from the snapshot being backed up (a SQLite copy, or PostgreSQL in
 * the transaction whose snapshot pg_dump dumps), so the counts and the files named are those of the copy, not of
 * the live database a moment later. Plain SQL both dialects run alike, through whichever connection holds the snapshot.
 */
export type Rows = (sql: string) => Promise<Record<string, unknown>[]>;

/** The tables a person checks a restore by. */
export const COUNTED_TABLES = ['hospitals', 'users', 'cases', 'slides', 'reports', 'report_documents', 'report_document_pdfs', 'attachments', 'case_images'] as const;

export interface DatabaseFacts {
  migration: string;
  counts: Record<string, number>;
  /** Data-directory-relative paths (storage keys) the rows name: slide files, case images, attachments. */
  referenced: string[];
  /** The hospital areas, each with the paths its slides name, relative to the area's storage root. */
  areas: (AreaRef & { referenced: string[] })[];
}

/** The migration that made hospital areas: an older database has none. */
const AREAS_MIGRATION = '0045_hospital_areas';

export async function databaseFacts(rows: Rows): Promise<DatabaseFacts> {
  const migrations = (await rows('select name from kysely_migration order by name')).map((r) => String(r.name));
  const migration = migrations.at(-1) ?? '';
  if (!migration) throw new Error('the database has run no migration: is it a DSMS database?');
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES) counts[table] = Number((await rows(`select count(*) as n from ${table}`))[0]!.n);
  const withAreas = migrations.includes(AREAS_MIGRATION);
  const areaRows = withAreas ? await rows('select id, code, storage_url from hospital_areas order by id') : [];
  const areas: AreaRef[] = areaRows.map((r) => ({ id: Number(r.id), code: String(r.code), storage_url: String(r.storage_url) }));
  const slides = await rows(`select file_path as p, ${withAreas ? 'area_id' : 'null'} as a from slides`);
  const others = await rows('select path as p from case_images union select path as p from attachments');
  const placed = placeReferences(slides.map((r) => ({ path: r.p, area: r.a })), others.map((r) => r.p), areas.map((a) => a.id));
  return {
    migration, counts, referenced: placed.base,
    areas: areas.map((a) => ({ ...a, referenced: placed.areas.get(a.id) ?? [] })),
  };
}
