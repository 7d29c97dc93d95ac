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
}

export async function databaseFacts(rows: Rows): Promise<DatabaseFacts> {
  const migrations = await rows('select name from kysely_migration order by name');
  const migration = String(migrations.at(-1)?.name ?? '');
  if (!migration) throw new Error('the database has run no migration: is it a DSMS database?');
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES) counts[table] = Number((await rows(`select count(*) as n from ${table}`))[0]!.n);
  const referenced = new Set<string>();
  // A hospital area's slides are in that area's own storage, which the site backs up where it is (docs/backup.md).
  const paths = await rows(
    'select file_path as p from slides where area_id is null union select path as p from case_images union select path as p from attachments',
  );
  for (const { p } of paths) {
    // Stored paths are relative to the data directory; anything else (a URL, an absolute path) is not ours to copy.
    if (typeof p === 'string' && p && !p.startsWith('/') && !/^[a-z]+:/i.test(p)) referenced.add(p);
  }
  return { migration, counts, referenced: [...referenced].sort() };
}
