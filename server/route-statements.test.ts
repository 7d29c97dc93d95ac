import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * SQL lives in each domain's queries.ts (or a small named file beside it), never in a route handler: a route file
 * calls named query functions. This fails with the file:line of every Kysely statement builder in a route file.
 */
const SERVER = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(SERVER);

/** Starts a statement: a query builder's entry, or raw SQL. */
const BUILDER = /\.(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)\s*\(|\bsql\s*(`|<[^>]*>\s*`|\.(raw|ref|table|id|lit|val|join)\s*\()/;

/** Route files: `*routes*.ts` anywhere under server/, and every file of a `routes/` folder. */
function routeFiles(dir = SERVER, inRoutes = false): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : routeFiles(full, inRoutes || e.name === 'routes');
    const ts = e.name.endsWith('.ts') && !e.name.endsWith('.test.ts');
    return ts && (inRoutes || e.name.includes('routes')) ? [full] : [];
  });
}

/** `file:line: text` of each line that builds a statement; comment lines are not code. */
export function statementLines(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    const code = line.trim();
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return [];
    return BUILDER.test(code) ? [`${file}:${i + 1}: ${code.slice(0, 120)}`] : [];
  });
}

describe('route files', () => {
  it('hold no Kysely statement: their SQL is in the domain\'s queries', () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(30);
    const offending = files.flatMap((f) => statementLines(path.relative(ROOT, f), fs.readFileSync(f, 'utf8')));
    expect(offending, offending.join('\n')).toEqual([]);
  });

  it('the check sees statements and raw SQL, and not comments', () => {
    const text = [
      "const rows = await db.selectFrom('slides').selectAll().execute();",
      '  // db.deleteFrom(\'slides\') in a comment',
      "await trx.updateTable('cases').set({ a: 1 }).execute();",
      'await sql`select 1`.execute(db);',
      "const n = sql<number>`count(*)`;",
      'const ok = await slideIn(db, id);',
    ].join('\n');
    expect(statementLines('x-routes.ts', text).map((l) => l.split(':')[1])).toEqual(['1', '3', '4', '5']);
  });
});
