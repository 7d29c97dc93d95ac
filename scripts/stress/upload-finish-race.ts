/**
 * Many small uploads through the app as `npm start` runs it (WORKERS processes), 4 chunks in flight: the finish of
 * each upload races across processes once per file, so a few hundred small files probe it far more often than a
 * few large ones. Not a test (it takes minutes); prints how many chunks were answered 5xx or 4xx.
 *
 *   node --import tsx scripts/stress/upload-finish-race.ts [--files 300] [--chunks 6]
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startApp } from '../bench/upload/app.js';
import { uploadOurs, retriedChunks } from '../bench/upload/clients.js';
import { CHUNK, generate } from '../bench/upload/source.js';

const { values } = parseArgs({ options: { files: { type: 'string', default: '300' }, chunks: { type: 'string', default: '6' } } });
const files = Number(values.files);
const size = Number(values.chunks) * CHUNK - 12345;
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-stress-upload-'));
const children: ChildProcess[] = [];
try {
  const source = path.join(work, 'source.bin');
  const hashes = await generate(source, size);
  const app = await startApp(path.join(work, 'app'), children, []);
  let failed = 0;
  for (let i = 1; i <= files; i++) {
    try {
      await uploadOurs(source, size, hashes, app.port, app.token, 4, `stress-${i}.kfb`);
    } catch (err) {
      failed++;
      console.log(`file ${i}: ${(err as Error).message.slice(0, 300)}`);
    }
  }
  console.log(`${files} files of ${values.chunks} chunks, 4 in flight, ${app.workers} workers: ${failed} failed, ${retriedChunks} chunks retried after a 5xx`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await fs.rm(work, { recursive: true, force: true });
}
