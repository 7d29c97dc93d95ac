/**
 * The e2e project imports the server as native JavaScript: a vite plugin that answers every import of a server/
 * module from a test with that module in one esbuild bundle of all of server/, built on the first such import of the
 * run. Through vitest's module runner, each e2e file (a process of its own) fetched and evaluated some 700 server
 * modules one by one from the main process, ~3 s of its set-up alone and more with four files at once; natively
 * the same import takes ~0.4 s. The bundle behaves as the TypeScript source does (`import.meta.url` is each source
 * file's own), so the server finds its root, runs its child entries through tsx and is `COMPILED` false, as before.
 */
import { build, type Plugin as EsbuildPlugin } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import { precompiledMetaValidator, ROOT, serverBundleOptions } from '../../scripts/build/server-bundle.js';

const SERVER = path.join(ROOT, 'server') + path.sep;
/** Under node_modules, so vitest leaves the bundle's imports to Node, and Node finds the app's packages above it. */
const OUT = path.join(ROOT, 'node_modules', '.cache', 'dsms-e2e-server', String(process.pid));

/** Each module's `import.meta.url` (and dirname, filename) is its source file's, not the bundle chunk's. */
const sourceLocation: EsbuildPlugin = {
  name: 'source-import-meta',
  setup(b) {
    b.onLoad({ filter: /[\\/]server[\\/].*\.ts$/ }, async (args) => {
      const code = await fs.promises.readFile(args.path, 'utf8');
      if (!code.includes('import.meta')) return undefined;
      const contents = code
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

function serverSources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverSources(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

async function bundleServer(): Promise<string> {
  fs.rmSync(OUT, { recursive: true, force: true });
  // Every source file an entry, so each keeps its own module (and its state) whoever imports it; shared code is
  // chunks, one copy of each module for the whole process.
  await build({
    ...serverBundleOptions,
    entryPoints: serverSources(SERVER),
    outbase: ROOT,
    outdir: OUT,
    plugins: [precompiledMetaValidator, sourceLocation],
  });
  process.once('exit', () => fs.rmSync(OUT, { recursive: true, force: true }));
  return OUT;
}

export function nativeServer(): Plugin {
  let bundle: Promise<string> | undefined;
  return {
    name: 'dsms:e2e-native-server',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !source.startsWith('.') || importer.startsWith(SERVER) || importer.includes(`${path.sep}node_modules${path.sep}`)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || !resolved.id.startsWith(SERVER) || !resolved.id.endsWith('.ts')) return null;
      const out = await (bundle ??= bundleServer());
      return path.join(out, path.relative(ROOT, resolved.id)).replace(/\.ts$/, '.js');
    },
  };
}
