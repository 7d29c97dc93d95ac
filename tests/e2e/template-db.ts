import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { seededSqliteFile } from '../api/template-db.js';

/**
 * Global set-up of the e2e project: one migrated, demo-seeded SQLite file per run, which every e2e server copies
 * (tests/e2e/harness.ts startServer) instead of migrating and seeding again in each of the project's files. The
 * directory holds `dsms.sqlite` and `data/`, where the migrations' secrets key is, if they made one: a server copies
 * both, so what the migrations sealed it can open.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The template directory: `dsms.sqlite` and `data/`. */
    e2eTemplate?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-e2e-template-'));
  await seededSqliteFile(path.join(dir, 'dsms.sqlite'), path.join(dir, 'data'));
  project.provide('e2eTemplate', dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
