/**
 * Compiles the server to JavaScript (`npm run build`, after the front end): each entry below and everything of ours
 * it imports (server/, src/core/, JSON) bundled into dist-server/<name>.js, with source maps. npm packages stay
 * imports, resolved from node_modules at run time; our modules imported dynamically become chunks of their own.
 * Files the server reads at run time (schemas/, seed JSON, dist/, the OpenSlide child script) are read from the
 * app's root directory (server/paths.ts), not copied.
 */
import { build, type Plugin } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { writeDemoSlideFiles } from '../server/db/seed/demo-slide-files.js';
import { PREBUILT_DEMO_SLIDES } from '../server/db/seed/demo-slides-ahead.js';
import { buildResourceMetaValidator } from '../server/resources/meta-validator.js';

/**
 * The server (main.ts) and what it starts as processes or threads of its own: the setup process (migrations, seed)
 * and the upload worker thread (upload/worker-client.ts). The demo slide painter the TypeScript server's setup runs
 * is not one: its slides are painted below, once.
 */
const ENTRIES = ['server/main.ts', 'server/setup.ts', 'server/modules/upload/upload-worker.ts'];
const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist-server');
const started = performance.now();

/**
 * server/resources/meta-validator.ts becomes ajv's standalone code of its validator, compiled here once instead of in
 * each process at each start. The code requires ajv's runtime helpers; they become imports, for an ES module.
 */
const precompiledMetaValidator: Plugin = {
  name: 'precompiled-meta-validator',
  setup(b) {
    b.onLoad({ filter: /[\\/]server[\\/]resources[\\/]meta-validator\.ts$/ }, () => {
      const { ajv, validate } = buildResourceMetaValidator(true);
      const imports: string[] = [];
      const code = standaloneCode(ajv, validate).replace(/require\("([^"]+)"\)/g, (_, spec: string) => {
        imports.push(`import runtime${imports.length} from ${JSON.stringify(`${spec}.js`)};`);
        return `runtime${imports.length - 1}`;
      });
      return { contents: `${imports.join('\n')}\n${code.replace(/^"use strict";/, '')}\nexport const resourceMetaValidator = () => validate;\n`, loader: 'js', resolveDir: root };
    });
  },
};

fs.rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  // Each entry is dist-server/<its file's name>.js (server/paths.ts entryArgs counts on that).
  entryPoints: ENTRIES.map((source) => ({ in: source, out: path.basename(source, '.ts') })),
  outdir,
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  // Dynamic imports of our own modules become chunks (dist-server/chunk-*.js, beside main.js: server/paths.ts counts
  // on one level below the root), so the npm packages only they import load with them: a cluster primary never loads
  // the HTTP app, a worker never the migrations and jobs (server/main.ts).
  splitting: true,
  chunkNames: 'chunk-[hash]',
  // Class and function names as written, for logs and stack traces.
  keepNames: true,
  metafile: true,
  logLevel: 'warning',
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
