/**
 * Backup and restore of an installation (docs/backup.md), configured by the same environment as the app
 * (DATA_DIR, DATABASE_URL, STORAGE_URL and S3_*, SECRETS_KEY: server/config.ts):
 *
 *   npm run backup -- <new folder> [--without-key]     while the app runs
 *   npm run restore -- <backup folder> [--force] [--key-file <file>] [--area <id or code>=<location>]…
 *                                                      into a fresh installation, the app stopped; --area puts a
 *                                                      hospital area's files in another directory or s3:// prefix
 *   npm run backup:verify -- <backup folder>           reads every file and compares it with the manifest
 *
 * Exit status: 0 done; 1 failed (the reason on stderr); 3 backup finished, but files the database names were missing.
 */
import { parseArgs } from 'node:util';
import { runBackup } from '../server/backup/backup.js';
import { readManifest, runRestore, verifyBackup } from '../server/backup/restore.js';
import { loadConfig } from '../server/config.js';

const USAGE = 'usage: backup.ts backup <folder> [--without-key] | restore <folder> [--force] [--key-file <file>] [--area <id or code>=<storage url or absolute directory>]… | verify <folder>';
const say = (line: string) => console.log(line);

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      'without-key': { type: 'boolean' }, force: { type: 'boolean' }, 'key-file': { type: 'string' }, area: { type: 'string', multiple: true },
    },
  });
  const [command, folder, ...extra] = positionals;
  if (!folder || extra.length) throw new Error(USAGE);
  if (values.area && command !== 'restore') throw new Error(`--area is for a restore: ${USAGE}`);
  if (command === 'backup') {
    const manifest = await runBackup(loadConfig(), folder, { withoutKey: values['without-key'] }, say);
    say(`backup finished: ${folder}/manifest.json`);
    return manifest.missing.length ? 3 : 0;
  }
  if (command === 'restore') {
    await runRestore(loadConfig(), folder, { force: values.force, keyFile: values['key-file'], areas: values.area }, say);
    say('restore finished: start the app');
    return 0;
  }
  if (command === 'verify') {
    const problems = await verifyBackup(folder, readManifest(folder), say);
    for (const p of problems) console.error(p);
    return problems.length ? 1 : 0;
  }
  throw new Error(USAGE);
}

main().then((code) => { process.exitCode = code; }, (err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
