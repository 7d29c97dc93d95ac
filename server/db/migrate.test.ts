import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REGISTRY } from './migrations/index.js';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const migrationFiles = () => fs.readdirSync(DIR).filter((f) => /^\d{4}.*\.ts$/.test(f) && !f.endsWith('.test.ts')).map((f) => f.slice(0, -3)).sort();

/** Every .ts file under migrations/ (the migrations, the registry and frozen/), relative to it. */
function sources(dir = DIR): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

/** What a migration may import: kysely, node builtins, and files inside migrations/. */
function outside(file: string, text = fs.readFileSync(file, 'utf8')): string[] {
  return [...text.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2] ?? m[3]!).filter((spec) => {
    if (spec === 'kysely' || spec.startsWith('node:') || builtinModules.includes(spec)) return false;
    if (!spec.startsWith('.')) return true;
    const target = path.resolve(path.dirname(file), spec);
    return path.relative(DIR, target).startsWith('..');
  });
}

describe('migrations', () => {
  it('import nothing outside server/db/migrations/ but kysely and node builtins', () => {
    const offending = sources().flatMap((file) => outside(file).map((spec) => `${path.relative(DIR, file)}: ${spec}`));
    expect(offending).toEqual([]);
  });

  it('the import check sees an import from outside', () => {
    const text = "import { isPostgres } from '../connect.js';\nimport type { Kysely } from 'kysely';\nimport fs from 'node:fs';\n"
      + "import { x } from './frozen/dialect.js';\nimport { y } from '../../modules/schemas/repository.js';\n";
    expect(outside(path.join(DIR, '0099_probe.ts'), text)).toEqual(['../connect.js', '../../modules/schemas/repository.js']);
  });

  it('are registered once each, in the order of their file names', () => {
    const names = REGISTRY.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(migrationFiles());
  });
});
