import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Writes dist/COMMITHASH (the git commit, else a hash of the bundle) and prints gzipped sizes. */
function buildReport(): Plugin {
  return {
    name: 'dsms-build-report',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      let hash: string;
      try {
        hash = execSync('git rev-parse --short=12 HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
      } catch {
        hash = '';
      }
      const content = createHash('sha256');
      const rows: { file: string; gz: number; entry: boolean }[] = [];
      for (const [file, out] of Object.entries(bundle)) {
        if (!file.endsWith('.js') && !file.endsWith('.css')) continue;
        const bytes = fs.readFileSync(path.join(dir, file));
        content.update(bytes);
        rows.push({ file, gz: zlib.gzipSync(bytes).length, entry: out.type === 'chunk' && out.isEntry });
      }
      fs.writeFileSync(path.join(dir, 'COMMITHASH'), `${hash ? `${hash}-` : ''}${content.digest('hex').slice(0, 12)}\n`);
      rows.sort((a, b) => b.gz - a.gz);
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      console.log('\nbundle sizes (gzip):');
      for (const r of rows.slice(0, 15)) console.log(`  ${kb(r.gz).padStart(10)}  ${r.file}${r.entry ? '  [entry]' : ''}`);
      fs.writeFileSync(path.join(dir, 'bundle-sizes.json'), JSON.stringify(rows, null, 2));
    },
  };
}

/**
 * dwv decodes compressed DICOM (JPEG, JPEG-LS, JPEG 2000, RLE) in module workers it starts from
 * `./assets/workers/<name>.worker.min.js` relative to the document's base address as it was when dwv loaded.
 * They are copied to a folder of dwv's version; the viewer chunk points the base there while dwv loads
 * (src/radiology/dwv.ts), so every /dicom/… address finds them.
 */
const dwvRoot = path.resolve('node_modules/dwv');
const dwvVersion = (JSON.parse(fs.readFileSync(path.join(dwvRoot, 'package.json'), 'utf8')) as { version: string }).version;
const DWV_WORKERS = `/dwv/${dwvVersion}/`;

function dwvWorkers(): Plugin {
  return {
    name: 'dsms-dwv-workers',
    apply: 'build',
    writeBundle(options) {
      const from = path.join(dwvRoot, 'dist/assets/workers');
      const to = path.join(options.dir ?? 'dist', DWV_WORKERS, 'assets/workers');
      fs.mkdirSync(to, { recursive: true });
      for (const file of fs.readdirSync(from)) if (file.endsWith('.worker.min.js')) fs.copyFileSync(path.join(from, file), path.join(to, file));
    },
  };
}

export default defineConfig({
  plugins: [react(), buildReport(), dwvWorkers()],
  define: { __DWV_WORKERS__: JSON.stringify(DWV_WORKERS) },
  server: { port: 5173, proxy: { '/api': 'http://localhost:8001' } },
  build: {
    outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // The libraries every page, the login included, runs on: one chunk gzips better than the dozen small ones
        // the default splitting makes of them (the login + shell budget is 300 KB gzipped).
        codeSplitting: { groups: [{ name: 'runtime-libs', test: /node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next|@griffel|tabster|keyborg|zustand|axios|react-router|react-router-dom)[\\/]/ }] },
      },
    },
  },
});
