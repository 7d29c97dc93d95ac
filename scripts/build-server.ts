/**
 * Compiles the server to JavaScript (`npm run build`, after the front end): server/main.ts and everything of ours it
 * imports (server/, src/core/, JSON) bundled into dist-server/main.js, with a source map; npm packages stay
 * imports, resolved from node_modules at run time. The upload worker thread's entry is a second bundle,
 * dist-server/upload-worker.js, which server/modules/upload/worker-client.ts starts when running compiled.
 * Files the server reads at run time (schemas/, seed JSON, dist/, the OpenSlide child script) are read from the
 * app's root directory (server/paths.ts), not copied.
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist-server');
const started = performance.now();

fs.rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'server/main.ts', 'upload-worker': 'server/modules/upload/upload-worker.ts' },
  outdir,
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  // Class and function names as written, for logs and stack traces.
  keepNames: true,
  metafile: true,
  logLevel: 'warning',
});

const sizes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith('.js'))
  .map(([file, out]) => `${path.relative(root, path.resolve(root, file))} ${(out.bytes / 1024).toFixed(0)} KiB`);
console.log(`server compiled in ${((performance.now() - started) / 1000).toFixed(1)} s: ${sizes.join(', ')}`);
