/**
 * How the server is bundled with esbuild: npm packages stay imports, resolved from node_modules at run time; our
 * modules (server/, src/core/, JSON) are bundled; our modules imported dynamically become chunks of their own. Used
 * by `npm run build` (scripts/build-server.ts, dist-server/) and by the e2e project, which imports the server as
 * native JavaScript instead of through vitest's module runner (tests/e2e/native-server.ts).
 */
import type { BuildOptions, Plugin } from 'esbuild';
import path from 'node:path';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { buildResourceMetaValidator } from '../../server/resources/meta-validator.js';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * server/resources/meta-validator.ts becomes ajv's standalone code of its validator, compiled here once instead of in
 * each process at each start. The code requires ajv's runtime helpers; they become imports, for an ES module.
 */
export const precompiledMetaValidator: Plugin = {
  name: 'precompiled-meta-validator',
  setup(b) {
    b.onLoad({ filter: /[\\/]server[\\/]resources[\\/]meta-validator\.ts$/ }, () => {
      const { ajv, validate } = buildResourceMetaValidator(true);
      const imports: string[] = [];
      const code = standaloneCode(ajv, validate).replace(/require\("([^"]+)"\)/g, (_, spec: string) => {
        imports.push(`import runtime${imports.length} from ${JSON.stringify(`${spec}.js`)};`);
        return `runtime${imports.length - 1}`;
      });
      return { contents: `${imports.join('\n')}\n${code.replace(/^"use strict";/, '')}\nexport const resourceMetaValidator = () => validate;\n`, loader: 'js', resolveDir: ROOT };
    });
  },
};

/** The options every bundle of the server shares; the caller adds entry points, outdir and its own plugins. */
export const serverBundleOptions = {
  absWorkingDir: ROOT,
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  // Class and function names as written, for logs and stack traces.
  keepNames: true,
  logLevel: 'warning',
} satisfies BuildOptions;
