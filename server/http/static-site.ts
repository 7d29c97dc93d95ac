import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { apiNotFound } from './error-handler.js';

/**
 * Serves the built front end. Hashed assets are immutable; every other path that is not /api gets
 * index.html so the browser router can take it (deep links, reloads on /manage/…).
 */
export async function registerStaticSite(app: FastifyInstance, distDir: string): Promise<void> {
  const hasBuild = fs.existsSync(path.join(distDir, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders: (res, file) => {
        res.header('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api') || request.method !== 'GET' || !hasBuild) {
      return reply.status(404).send(apiNotFound(request));
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
