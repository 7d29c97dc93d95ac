/**
 * Compiles the server to JavaScript (`npm run build`, after the front end): each entry below and everything of ours
 * it imports (server/, src/core/, JSON) bundled into dist-server/<name>.js, with source maps. npm packages stay
 * imports, resolved from node_modules at run time; our modules imported dynamically become chunks of their own.
 * Files the server reads at run time (schemas/, seed JSON, dist/, the OpenSlide child script) are read from the
 * app's root directory (server/paths.ts), not copied.
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { writeDemoSlideFiles } from '../server/db/seed/demo-slide-files.js';
import { PREBUILT_DEMO_SLIDES } from '../server/db/seed/demo-slides-ahead.js';
import { precompiledMetaValidator, ROOT as root, serverBundleOptions } from './build/server-bundle.js';

/**
 * The server (main.ts) and what it starts as processes or threads of its own: the setup process (migrations, seed)
 * and the upload worker thread (upload/worker-client.ts). The demo slide painter the TypeScript server's setup runs
 * is not one: its slides are painted below, once.
 */
const ENTRIES = ['server/main.ts', 'server/setup.ts', 'server/modules/upload/upload-worker.ts'];
const outdir = path.join(root, 'dist-server');
const started = performance.now();

fs.rmSync(outdir, { recursive: true, force: true });
const result = await build({
  ...serverBundleOptions,
  // Each entry is dist-server/<its file's name>.js (server/paths.ts entryArgs counts on that).
  entryPoints: ENTRIES.map((source) => ({ in: source, out: path.basename(source, '.ts') })),
  // Chunks (dist-server/chunk-*.js) sit beside main.js, one level below the root, as server/paths.ts counts on. Our
  // modules imported dynamically are chunks of their own, so the npm packages only they import load with them: a
  // cluster primary never loads the HTTP app, a worker never the migrations and jobs (server/main.ts).
  outdir,
  metafile: true,
  plugins: [precompiledMetaValidator],
});
// The demo slides a first start puts in its data directory, painted now rather than at that start (demo-slides-ahead.ts).
const demoDir = path.join(root, PREBUILT_DEMO_SLIDES);
fs.mkdirSync(demoDir, { recursive: true });
await writeDemoSlideFiles(demoDir);

const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'))
  .map(([file, out]) => ({ file: path.basename(file), kib: out.bytes / 1024 }));
const chunks = outputs.filter((o) => o.file.startsWith('chunk-'));
const entries = outputs.filter((o) => !o.file.startsWith('chunk-')).map((o) => `${o.file} ${o.kib.toFixed(0)} KiB`);
console.log(`server compiled into dist-server/ in ${((performance.now() - started) / 1000).toFixed(1)} s: ${entries.join(', ')}, ${chunks.length} chunks ${chunks.reduce((s, c) => s + c.kib, 0).toFixed(0)} KiB`);
