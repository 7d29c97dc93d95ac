import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import querystring from 'node:querystring';
import { parse as qsParse } from 'qs';
import type { ServerConfig } from './config.js';
import type { Db } from './db/connect.js';
import { registerErrorHandler } from './http/error-handler.js';
import { serverWithFastLanes, type FastLane } from './http/fast-lanes.js';
import { registerGuard } from './http/guard.js';
import { registerOperationLog } from './http/operation-log.js';
import { registerStaticSite } from './http/static-site.js';
import './http/types.js';
import { authRoutes } from './modules/auth/routes.js';
import { commonRoutes } from './modules/common/routes.js';
import { settingRoutes } from './modules/settings/routes.js';
import { tileFastLane } from './modules/tiles/fast-lane.js';
import { tileRoutes } from './modules/tiles/routes.js';
import { cachedSessionResolver } from './modules/tiles/session-cache.js';
import { loadBasePages, loadEnums, SCHEMAS_DIR } from './modules/schemas/repository.js';
import { schemaRoutes } from './modules/schemas/routes.js';
import { SchemaStore } from './modules/schemas/store.js';
import { loadResources } from './resources/definition.js';
import { resourceRoutes } from './resources/routes.js';
import { logRoutes } from './modules/logs/routes.js';
import { accountRoutes } from './modules/account/routes.js';
import path from 'node:path';
import { uploadRoutes } from './modules/upload/routes.js';
import { caseRoutes } from './modules/cases/routes.js';
import { collectionRoutes } from './modules/collections/routes.js';
import { slideHooks } from './modules/slides/hooks.js';
import { databaseSlideResolver } from './modules/slides/resolver.js';
import { slideRoutes } from './modules/slides/routes.js';
import { slidesDirResolver } from './modules/tiles/resolver.js';
import { sessionFromToken } from './modules/users/queries.js';
import { userRoutes } from './modules/users/routes.js';

export interface AppOptions {
  db: Db;
  config: Pick<ServerConfig, 'tokenTtlSeconds' | 'distDir' | 'logLevel'> & Partial<Pick<ServerConfig, 'dataDir' | 'uploadMaxBytes' | 'tileCacheMb'>>;
  logger?: boolean;
}

const parseQuery = (s: string): Record<string, unknown> =>
  s.includes('[') || s.includes('%5B') || s.includes('%5b') ? (qsParse(s, { arrayLimit: 1000, depth: 5 }) as Record<string, unknown>) : { ...querystring.parse(s) };

/** Builds the whole HTTP app; tests call this with app.inject, main.ts listens. */
export async function buildApp({ db, config, logger = true }: AppOptions): Promise<FastifyInstance> {
  const fastLanes: FastLane[] = [];
  const app = Fastify({
    serverFactory: serverWithFastLanes(fastLanes),
    logger: logger ? { level: config.logLevel, redact: ['req.headers.authorization'] } : false,
    trustProxy: true,
    bodyLimit: 10 * 1024 * 1024,
    // The spec's GET arrays come as a[0]=x&a[1]=y; qs reads them back as arrays. Plain strings (every
    // `?token=` tile) skip it: qs costs ~16 µs a request on the tile hot path.
    routerOptions: { querystringParser: parseQuery },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(swagger, {
    openapi: {
      info: { title: 'DSMS API', version: '0.1.0', description: 'Digital pathology slide and case management' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  registerErrorHandler(app);
  const resolveSession = (token: string) => sessionFromToken(db, token);
  // One session cache for the tile routes (header and ?token=) and their fast lane; a logout here clears it.
  const sessions = cachedSessionResolver(resolveSession);
  registerGuard(app, resolveSession, sessions);
  registerOperationLog(app, db);

  authRoutes(app, db, config.tokenTtlSeconds, { onLogout: (tokenHash) => sessions.forget(tokenHash) });
  userRoutes(app, db);
  const resources = loadResources(path.join(SCHEMAS_DIR, 'resources'));
  const schemas = new SchemaStore(db, loadBasePages());
  settingRoutes(app, db, (key, hospitalId) => schemas.formForSetting(key, hospitalId));
  accountRoutes(app, db, schemas);
  schemaRoutes(app, db, schemas, resources, loadEnums());
  // Slides need the data dir (files, thumbnails); the same default as the tile and upload routes.
  const dataDir = config.dataDir ?? path.resolve('data');
  const slidesHooks = slideHooks(dataDir);
  resourceRoutes(app, db, resources, schemas, { slides: slidesHooks });
  caseRoutes(app, db);
  collectionRoutes(app, db, resources.find((r) => r.name === 'collections')!);
  logRoutes(app, db);
  commonRoutes(app, config.distDir);
  const tiles = tileRoutes(app, db, config, {
    resolveSlide: databaseSlideResolver(db, dataDir, slidesDirResolver(path.join(dataDir, 'slides'))),
    resolveSession: sessions,
  });
  const tileLane = tileFastLane(tiles, sessions);
  fastLanes.push(tileLane);
  // A closing server answers through Fastify, which sends 503 and closes kept-alive connections.
  app.addHook('preClose', async () => tileLane.close());
  slideRoutes(app, db, dataDir, resources.find((r) => r.name === 'slides')!, slidesHooks);
  uploadRoutes(app, config);

  await registerStaticSite(app, config.distDir);
  return app;
}
