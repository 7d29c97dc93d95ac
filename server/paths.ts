import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The app's root directory, the one holding package.json, schemas/, dist/ and node_modules/. Every file the server
 * reads from the app itself (not from DATA_DIR) is located from here, so the TypeScript server (tsx: this file is
 * server/paths.ts) and the compiled one (`npm run build`: it is bundled into dist-server/, main.js and its chunks)
 * find the same files: both sit one directory below the root. Keep it that way when moving either.
 */
export const APP_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A path inside the app's root directory: `appPath('schemas', 'pages')`. */
export const appPath = (...parts: string[]): string => path.join(APP_ROOT, ...parts);

/** Whether this is the compiled server (dist-server/, `npm start`) rather than TypeScript run by tsx (or vitest). */
export const COMPILED = !import.meta.url.endsWith('.ts');

/**
 * The node arguments that run one of the server's own entry points in a child process, given as its source
 * (`server/….ts`): compiled, its bundle `dist-server/<name>.js` (scripts/build-server.ts builds every entry under
 * its file's name); otherwise the TypeScript file through tsx.
 */
export function entryArgs(source: string): string[] {
  return COMPILED
    ? ['--enable-source-maps', appPath('dist-server', `${path.basename(source, '.ts')}.js`)]
    : ['--import', 'tsx', appPath(source)];
}

/** Runs one of the server's own entry points (see entryArgs) as a child process sharing this one's output; resolves once it exited with 0. */
export function runEntry(source: string, args: string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entryArgs(source), ...args], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${path.basename(source, '.ts')} failed: ${signal ?? `exit code ${code}`}`))));
  });
}
