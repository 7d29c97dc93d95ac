import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A folder of template slides for one test file, made once by `make` before its tests and removed after them.
 * Answers the path of a template by name.
 */
export function templates(make: (file: (name: string) => string) => Promise<void>): (name: string) => string {
  let dir = '';
  const file = (name: string) => path.join(dir, name);
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-formats-tpl-'));
    await make(file);
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return file;
}
