/**
 * The first hospital and its administrator, for an installation started with DSMS_DEMO=0 (docs/deploy.md), with
 * the app's own environment (DATA_DIR or DATABASE_URL):
 *
 *   npm run create-admin -- --hospital-code H001 --hospital-name 某某医院 [--hospital-en-name "…"] [--user admin]
 *
 * The password is read from standard input (typed without echo at a terminal, or piped: `… < file`), never from
 * the command line, where other users of the machine could read it. Exit status 0 done, 1 refused (reason on stderr).
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { createFirstAdmin } from '../server/admin/first-admin.js';
import { loadConfig } from '../server/config.js';
import { connect } from '../server/db/connect.js';

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return fs.readFileSync(0, 'utf8').split(/\r?\n/)[0] ?? '';
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const ask = (q: string) => new Promise<string>((resolve) => {
    process.stdout.write(q);
    // Typed characters are not echoed.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => undefined;
    rl.question('', (answer) => { process.stdout.write('\n'); resolve(answer); });
  });
  try {
    const first = await ask('password: ');
    if (first !== await ask('again: ')) throw new Error('the two passwords differ');
    return first;
  } finally {
    rl.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'hospital-code': { type: 'string' }, 'hospital-name': { type: 'string' }, 'hospital-en-name': { type: 'string' },
      user: { type: 'string', default: 'admin' }, realname: { type: 'string' },
    },
  });
  if (!values['hospital-code'] || !values['hospital-name']) throw new Error('usage: create-admin --hospital-code <code> --hospital-name <name> [--hospital-en-name <name>] [--user admin] [--realname <name>]');
  const config = loadConfig();
  const db = connect({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'dsms.sqlite'), statementTimeoutMs: config.dbStatementTimeoutMs });
  try {
    const made = await createFirstAdmin(db, {
      hospitalCode: values['hospital-code'], hospitalName: values['hospital-name'], hospitalEnName: values['hospital-en-name'],
      user: values.user!, realname: values.realname, password: await readPassword(),
    });
    console.log(`${values.user} can sign in (user ${made.userId}, hospital ${values['hospital-code']} ${made.hospitalCreated ? 'made' : 'joined'})`);
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
