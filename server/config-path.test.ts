import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig, withDefaults } from './config.js';

const SERVER = fileURLToPath(new URL('.', import.meta.url));

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

/**
 * Passing the environment on to a child process is not reading a setting; the cluster relay's marker is set by the
 * primary for its own workers (workers.ts), not by an operator.
 */
const PASSES_ENV_ON = ['modules/outer/tesseract.ts', 'modules/slides/conversion/vips-cli.ts', 'modules/slides/conversion/openslide-associated.ts', 'realtime/cluster-relay.ts', 'backup/postgres-copy.ts'];

/** One configuration path (issue 28): the environment is read in server/config.ts only, and the database layer needs none. */
describe('one configuration path', () => {
  it('reads process.env in server/config.ts only', () => {
    const readers = sources(SERVER).map((f) => path.relative(SERVER, f))
      .filter((f) => f !== 'config.ts' && !PASSES_ENV_ON.includes(f))
      .filter((f) => /process\.env\b/.test(fs.readFileSync(path.join(SERVER, f), 'utf8')));
    expect(readers).toEqual([]);
  });

  it('opens the database without the configuration (nor the modules config.ts reads for): db/connect and what it imports', () => {
    const relative = (file: string) => [...fs.readFileSync(file, 'utf8').matchAll(/\bfrom\s*['"](\.[^'"]+)['"]/g)]
      .map((m) => path.resolve(path.dirname(file), m[1]!.replace(/\.js$/, '.ts')));
    const connect = path.join(SERVER, 'db', 'connect.ts');
    const reached = [...new Set([...relative(connect), ...relative(connect).flatMap(relative)])].map((f) => path.relative(SERVER, f));
    expect(reached.length).toBeGreaterThan(0);
    expect(reached.filter((f) => !f.startsWith(`db${path.sep}`))).toEqual([]);
  });

  it('completes a partial configuration with the defaults of an empty environment', () => {
    const full = withDefaults({ tokenTtlSeconds: 60, publicUrl: undefined });
    expect(full).toEqual({ ...loadConfig({}), tokenTtlSeconds: 60 });
    expect(loadConfig({ REPORT_FONT: '/f.ttc', REPORT_FONT_FACE: 'X', DB_STATEMENT_TIMEOUT_MS: '0' })).toMatchObject({ reportFont: { file: '/f.ttc', face: 'X' }, dbStatementTimeoutMs: 0 });
  });
});
