import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const RESOURCES = fileURLToPath(new URL('.', import.meta.url));
const MODULES = fileURLToPath(new URL('../modules/', import.meta.url));

/** Every .ts file under a folder, tests included (a test reaching into a module ties the layers as well). */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** The specifiers of static imports and exports (type-only too), dynamic import() and require(). */
export function importSpecifiers(code: string): string[] {
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((re) => [...code.matchAll(re)].map((m) => m[1]));
}

/** A relative specifier that lands in server/modules, or any path naming it. */
function reachesModules(file: string, specifier: string): boolean {
  if (specifier.startsWith('.')) return path.resolve(path.dirname(file), specifier).startsWith(MODULES);
  return /(^|\/)server\/modules(\/|$)/.test(specifier);
}

/**
 * The server depends one way: modules use the generic resource layer, never the reverse. A module's
 * hooks, stores and auth helpers reach server/resources through what app.ts passes in.
 */
describe('dependency direction of the server', () => {
  it('finds imports of every form', () => {
    const code = [
      "import type { A } from './lib/a.js';",
      "import {\n  B,\n  C,\n} from './lib/b.js';",
      "export { D } from './lib/d.js';",
      "export * from './lib/e.js';",
      "import './lib/f.js';",
      "const g = await import('./lib/g.js');",
      "const h = require('./lib/h.js');",
    ].join('\n');
    expect(importSpecifiers(code).sort()).toEqual(['a', 'b', 'd', 'e', 'f', 'g', 'h'].map((x) => `./lib/${x}.js`));
    const file = path.join(RESOURCES, 'hooks', 'x.ts');
    expect(reachesModules(file, '../../modules/users/hooks.js')).toBe(true);
    expect(reachesModules(file, '../types.js')).toBe(false);
    expect(reachesModules(file, '../../http/errors.js')).toBe(false);
  });

  it('no file under server/resources imports from server/modules', () => {
    const files = sources(RESOURCES);
    expect(files.length).toBeGreaterThan(10);
    const offending = files.flatMap((file) => importSpecifiers(fs.readFileSync(file, 'utf8'))
      .filter((s) => reachesModules(file, s))
      .map((s) => `${path.relative(RESOURCES, file)} → ${s}`));
    expect(offending).toEqual([]);
  });
});
