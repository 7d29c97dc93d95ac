import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ENGINE = fileURLToPath(new URL('.', import.meta.url));
const SRC = path.resolve(ENGINE, '..');
/** Where the app is put together: the menu's pages and what they load beside them. */
const COMPOSITION_ROOT = path.join(ENGINE, 'pageRegistry.tsx');
/** The app's modules, which register into the engine (src/modules), and the pages that are modules of their own. */
const MODULES = ['viewer', 'modules', 'upload', 'diagnosis', 'meeting', 'messages'].map((d) => path.join(SRC, d) + path.sep);

/** Static imports and exports (type-only too) and dynamic import(): as server/resources/dependency-direction.test.ts reads them. */
const importSpecifiers = (code: string): string[] => [
  /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
].flatMap((re) => [...code.matchAll(re)].map((m) => m[1]));

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/**
 * The browser's engine depends one way (issue 28): modules register what they need into it (a link opener, a live
 * source, an action kind), it imports none of them, and it names no module's endpoint or realtime topic.
 */
describe('dependency direction of the engine', () => {
  const files = sources(ENGINE).filter((f) => f !== COMPOSITION_ROOT);

  it('imports no module', () => {
    const reaching = files.flatMap((file) => importSpecifiers(fs.readFileSync(file, 'utf8'))
      .filter((s) => s.startsWith('.') && MODULES.some((m) => path.resolve(path.dirname(file), s).startsWith(m)))
      .map((s) => `${path.relative(SRC, file)} → ${s}`));
    expect(reaching).toEqual([]);
  });

  it('names no module\'s endpoint or realtime topic', () => {
    const naming = files.filter((file) => /\/api\/outer\/|scannerStatusTopic|realtime-topics/.test(fs.readFileSync(file, 'utf8'))).map((f) => path.relative(SRC, f));
    expect(naming).toEqual([]);
  });
});
