import type { FastifyInstance } from 'fastify';
import type { Access } from './types.js';

/** One route as declared: what the route-wide access test (tests/api/access-routes.test.ts) walks. */
export interface RouteEntry {
  method: string;
  url: string;
  access?: Access;
  /** false: a POST that only reads (a long list filter). */
  audit?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app as it was declared (HEAD routes Fastify adds for GET left out). */
    routeTable: readonly RouteEntry[];
  }
}

/** Keeps the app's route table; before any route is declared, as onRoute sees only those that follow it. */
export function registerRouteTable(app: FastifyInstance): void {
  const routes: RouteEntry[] = [];
  app.decorate('routeTable', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, access: route.config?.access, audit: route.config?.audit });
    }
  });
}
