import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The app's root directory, the one holding package.json, schemas/, dist/ and node_modules/. Every file the server
 * reads from the app itself (not from DATA_DIR) is located from here, so the TypeScript server (tsx: this file is
 * server/paths.ts) and the compiled one (`npm run build`: it is bundled into dist-server/main.js) find the same
 * files: both sit one directory below the root. Keep it that way when moving either.
 */
export const APP_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A path inside the app's root directory: `appPath('schemas', 'pages')`. */
export const appPath = (...parts: string[]): string => path.join(APP_ROOT, ...parts);
