import fs from 'node:fs';
import path from 'node:path';
import { ok } from '../../http/envelope.js';
import type { TypedApp } from '../../http/types.js';

/** The hash of the front-end build being served; the browser reloads when it differs from what it last saw. */
export function commonRoutes(app: TypedApp, distDir: string): void {
  const read = () => {
    try {
      return fs.readFileSync(path.join(distDir, 'COMMITHASH'), 'utf8').trim();
    } catch {
      return 'dev';
    }
  };
  app.get('/api/COMMITHASH', { config: { access: 'public' }, schema: { tags: ['common'] } }, async () => ok(read()));
}
