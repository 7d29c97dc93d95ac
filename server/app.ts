import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { withDefaults, type ServerConfig } from './config.js';
import type { Db } from './db/connect.js';
import { lazySerializers } from './http/lazy-serializers.js';
import { lazyValidators } from './http/lazy-validators.js';
import { registerErrorHandler } from './http/error-handler.js';
import { serverWithFastLanes, type FastLane } from './http/fast-lanes.js';
import { registerGuard } from './http/guard.js';
import { registerHostileInput } from './http/hostile-input.js';
import { registerAccessScope, scopedDb } from './http/access-scope.js';
import { clinicalReachOf } from './http/clinical-scope.js';
import { registerRouteTable } from './http/route-table.js';
import { parseQuery } from './http/query-string.js';
import { IMAGE_COOKIE, registerImageCookie } from './http/image-cookie.js';
import { logSerializers } from './http/log-serializers.js';
import { registerOperationLog } from './http/operation-log.js';
import { registerStaticSite } from './http/static-site.js';
import { registerSecurityHeaders, SWAGGER_UI_POLICY } from './http/security-headers.js';
import { withoutTuples } from './http/openapi-tuples.js';
import './http/types.js';
import { authRoutes } from './modules/auth/routes.js';
import { qrLoginRoutes } from './modules/qr-login/routes.js';
import { webauthnMemberRoutes } from './modules/webauthn/member-routes.js';
import { webauthnRoutes } from './modules/webauthn/routes.js';
import { ssoRoutes } from './modules/sso/routes.js';
import { providerSignOutUrl } from './modules/sso/sign-out.js';
import { secretBox, type SecretBox } from './security/sealed-secrets.js';
import { outerRoutes } from './modules/outer/routes.js';
import { commonRoutes } from './modules/common/routes.js';
import { settingRoutes } from './modules/settings/routes.js';
import { tileFastLane } from './modules/tiles/fast-lane.js';
import { tileRoutes } from './modules/tiles/routes.js';
import { dicomwebRoutes } from './modules/dicomweb/routes.js';
import { appStorage } from './storage/app-storage.js';
import { areaStorages } from './storage/area-storages.js';
import { cachedSessionResolver } from './modules/tiles/session-cache.js';
import { loadBasePages, loadEnums, loadRuleSets, SCHEMAS_DIR } from './modules/schemas/repository.js';
import { ruleRoutes, schemaRoutes } from './modules/schemas/routes.js';
import { ContractStore, MenuStore, RuleStore, SchemaStore } from './modules/schemas/store.js';
import { warnOnce } from '../src/core/rules.js';
import { loadResources } from './resources/definition.js';
import { resourceRoutes } from './resources/routes.js';
import { logRoutes } from './modules/logs/routes.js';
import { accountRoutes } from './modules/account/routes.js';
import { annotationRoutes } from './modules/annotations/routes.js';
import { messageRoutes } from './modules/messages/routes.js';
import { caseImageRoutes } from './modules/case-images/routes.js';
import { focusRoutes } from './modules/focus/routes.js';
import { scannerRoutes } from './modules/scanners/routes.js';
import { statisticRoutes } from './modules/statistics/routes.js';
import { labelRoutes } from './modules/statistics/label-routes.js';
import { slideLabelRoutes } from './modules/statistics/slide-label-routes.js';
import { SCANNER_KEY_HEADER, scannerUploads } from './modules/scanners/agent-auth.js';
import path from 'node:path';
import { uploadRoutes } from './modules/upload/routes.js';
import { caseRoutes } from './modules/cases/routes.js';
import { lifecycleRoutes } from './modules/cases/lifecycle-routes.js';
import { diagnosisModule } from './modules/diagnosis/index.js';
import { hisAdapter } from './modules/his/index.js';
import { collectionRoutes } from './modules/collections/routes.js';
import { openSealedFields } from './modules/auth/sealed-fields.js';
import { resourceHooks } from './modules/resource-hooks.js';
import { databaseSlideResolver } from './modules/slides/resolver.js';
import { slideRoutes } from './modules/slides/routes.js';
import { sessionFromToken } from './modules/users/queries.js';
import { userRoutes } from './modules/users/routes.js';
import { hospitalCopyRoutes } from './modules/hospital-copy/routes.js';
import { jobRoutes } from './modules/jobs/routes.js';
import { realtimeConnectSources } from './realtime/config.js';
import { createRealtime, type RealtimeHub } from './realtime/index.js';
import { pushDomainEvents } from './realtime/push.js';
import { realtimeRoutes } from './realtime/routes.js';
import { shareRoutes } from './modules/shares/routes.js';
import { meetingRoutes } from './modules/meetings/routes.js';
import { consultationRoutes } from './modules/consultations/routes.js';
import { examRoutes } from './modules/exams/routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The realtime channel: `app.realtime.publish(topic, payload)` (server/realtime). */
    realtime: RealtimeHub;
    /** The key the app seals and opens stored secrets with (security/sealed-secrets.ts). */
    secrets: SecretBox;
  }
}

export interface AppOptions {
  /** The unscoped handle; route modules get the request-scoped one made from it (http/access-scope.ts). */
  db: Db;
  /** The server's settings (loadConfig); what a caller (a test) leaves out takes config.ts's default (withDefaults). */
  config: Partial<ServerConfig>;
  logger?: boolean;
  /** Where the request log goes instead of stdout (tests read it); turns the log on. */
  logStream?: { write(line: string): void };
}

/** Builds the whole HTTP app; tests call this with app.inject, main.ts listens. */
export async function buildApp({ db: systemDb, config: given, logger = true, logStream }: AppOptions): Promise<FastifyInstance> {
  // What the caller leaves out (tests pass a few settings) is config.ts's default, decided there only.
  const config = withDefaults(given);
  // Row-level access in one place (issue 27): every module's statements over cases, slides and what hangs off them
  // reach only the current request's hospitals and directories, and nothing outside a signed-in request. The
  // unscoped `systemDb` goes by name only to infrastructure and to routes with their own token rules (the list
  // and its reasons: server/http/access-handles.test.ts).
  const db = scopedDb(systemDb);
  const fastLanes: FastLane[] = [];
  // Serializers keep tokens out of logged URLs and errors (log-serializers.ts).
  const logging: FastifyServerOptions['logger'] = logger || logStream
    ? { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'], serializers: logSerializers, ...(logStream ? { stream: logStream } : {}) }
    : false;
  const app = Fastify({
    serverFactory: serverWithFastLanes(fastLanes),
    logger: logging,
    // Off unless configured: with nothing in front, X-Forwarded-For would let a client choose its logged address.
    trustProxy: config.trustProxy,
    bodyLimit: 10 * 1024 * 1024,
    // The spec's GET arrays come as a[0]=x&a[1]=y (query-string.ts).
    // maxParamLength: a DICOMweb frame list (64 frame numbers, dicomweb/routes.ts) is longer than the router's default
    // 100 characters; each route's schema bounds its own parameters within this.
    routerOptions: { querystringParser: parseQuery, maxParamLength: 500 },
    // allowUnionTypes: a body may take one of several scalar types as is (registration's added fields, lifecycle-bodies.ts).
    // strictNumbers: Infinity (a body's 1e309) and NaN are not numbers; one reaching SQL answered 500 (hostile-input.ts).
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: true, allowUnionTypes: true, strictNumbers: true } },
    // Each route's request schemas compiled at its first request and its response schemas at its first answer, not
    // all at start (lazy-validators.ts, lazy-serializers.ts).
    schemaController: { compilersFactory: { buildValidator: lazyValidators, buildSerializer: lazySerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  registerRouteTable(app);
  // First, so every answer gets the headers, plugins' and errors' included.
  const realtimeConfig = config.realtime;
  registerSecurityHeaders(app, config.frameSources, realtimeConnectSources(realtimeConfig));

  await app.register(swagger, {
    openapi: {
      info: { title: 'DSMS API', version: '0.1.0', description: 'Digital pathology slide and case management' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          // Set at login, read only by the GET image routes (image-cookie.ts).
          imageCookie: { type: 'apiKey', in: 'cookie', name: IMAGE_COOKIE },
          // A scanner agent's own key (modules/scanners/agent-auth.ts): without it here the whole document failed to build.
          scannerKey: { type: 'apiKey', in: 'header', name: SCANNER_KEY_HEADER },
        },
      },
      security: [{ bearer: [] }],
    },
    // OpenAPI 3.0 has no tuples (the annotation points): the document gets an equivalent it can state.
    transformObject: (doc) => ('openapiObject' in doc ? withoutTuples(doc.openapiObject) : doc.swaggerObject),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: SWAGGER_UI_POLICY });

  registerErrorHandler(app);
  const resolveSession = (token: string) => sessionFromToken(systemDb, token);
  // One session cache for the image routes (header and image cookie) and the tile fast lane; a logout or an
  // administrator's change to a user or role here clears it at once, elsewhere within its 5 s.
  const sessions = cachedSessionResolver(resolveSession);
  // The realtime channel (MQTT over WebSocket): other modules publish through app.realtime.
  const realtime = await createRealtime(realtimeConfig, app.server, systemDb, resolveSession, app.log);
  app.decorate('realtime', realtime);
  const stopPushes = pushDomainEvents(systemDb, realtime, app.log);
  // preClose: its WebSockets would otherwise hold the HTTP server's close open.
  app.addHook('preClose', async () => { stopPushes(); await realtime.close(); });
  registerGuard(app, resolveSession, sessions);
  // Before any route is declared: it bounds the ids of each route's schema as the route is added.
  registerHostileInput(app);
  // A broken rule file stops the start here, naming the file (loadRuleSets); a rule failing later is a warning.
  const rules = new RuleStore(systemDb, loadRuleSets(), warnOnce((m) => app.log.warn({ rules: true }, m)));
  // A clinician's reports are narrowed by their hospitals' clinical-reach rule (issue 31), in the row scope too.
  registerAccessScope(app, clinicalReachOf((hospitalId) => rules.resolverFor(hospitalId)));
  registerOperationLog(app, systemDb);

  // This app's key for the secrets it stores sealed (SECRETS_KEY or the data directory's key file), its own: two
  // apps in one process may have two. A malformed key stops the build here.
  const secrets = secretBox(config.secrets);
  app.decorate('secrets', secrets);
  // Before the auth routes: it attaches to login and logout as they are declared.
  registerImageCookie(app, config.publicUrl.startsWith('https:'));
  authRoutes(app, db, { tokenTtlSeconds: config.tokenTtlSeconds, rateLimitPerMinute: config.authRateLimitPerMinute }, {
    onLogout: (tokenHash) => { sessions.forget(tokenHash); realtime.endSession(tokenHash); },
    // A locked screen stops this process's tiles at once (other processes: within the cache's lifetime).
    onScreenLock: (tokenHash) => { sessions.forget(tokenHash); realtime.endSession(tokenHash); },
    signOutUrl: (tokenHash) => providerSignOutUrl(db, secrets, tokenHash, config.publicUrl,
      (err) => app.log.warn({ err }, 'single sign-on: the provider could not be asked to end its session')),
  });
  ssoRoutes(app, db, {
    tokenTtlSeconds: config.tokenTtlSeconds, rateLimitPerMinute: config.authRateLimitPerMinute,
    publicUrl: config.publicUrl, secrets,
  });
  // These two keep their own handling of an address the caller did not give (the relying party of tests on app.inject).
  qrLoginRoutes(app, db, { tokenTtlSeconds: config.tokenTtlSeconds, publicUrl: given.publicUrl, rateLimitPerMinute: config.authRateLimitPerMinute });
  webauthnRoutes(app, db, { tokenTtlSeconds: config.tokenTtlSeconds, publicUrl: given.publicUrl, rateLimitPerMinute: config.authRateLimitPerMinute });
  webauthnMemberRoutes(app, db);
  const menus = new MenuStore(systemDb);
  userRoutes(app, db, {
    tokenTtlSeconds: config.tokenTtlSeconds, rateLimitPerMinute: config.authRateLimitPerMinute, menuOverride: (hospitalId) => menus.overrideFor(hospitalId),
    onSessionEnd: (tokenHash) => { sessions.forget(tokenHash); realtime.endSession(tokenHash); },
  });
  const resources = loadResources(path.join(SCHEMAS_DIR, 'resources'));
  const enums = loadEnums();
  const schemas = new SchemaStore(systemDb, loadBasePages(), rules, enums);
  const contracts = new ContractStore(systemDb, resources, rules, enums, (m) => app.log.warn({ contracts: true }, m));
  settingRoutes(app, db, (key) => schemas.formForSetting(key), (hospitalId) => schemas.rulesFor(hospitalId));
  // A new password ends the user's other sessions; their cached tile sessions go with them in this process.
  accountRoutes(app, db, schemas, (userId) => { sessions.forgetUser(userId); realtime.recheckUser(userId); });
  schemaRoutes(app, db, schemas, contracts, resources, enums, menus);
  hospitalCopyRoutes(app, db);
  ruleRoutes(app, rules);
  // Slides need the data dir (files, thumbnails); the same default as the tile and upload routes.
  const dataDir = config.dataDir;
  // Slide files and thumbnails: the data directory, or object storage with its block cache (STORAGE_URL); a
  // hospital area's slides, its own storage (issue 29), each opened on first use.
  const { storage } = appStorage(config);
  const areas = areaStorages(config);
  // A change to a user or role drops the cached tile sessions it affects in this process at once.
  const hooks = resourceHooks({
    areas, onUserChanged: (id) => { sessions.forgetUser(id); realtime.recheckUser(id); }, onRoleChanged: () => sessions.forgetAll(),
    // Case lists carry the status the hospital's case-status rules derive (spec §4).
    caseRules: (hospitalId) => rules.resolverFor(hospitalId),
  });
  resourceRoutes(app, db, resources, { contracts, hooks, openSealed: (fields, body) => openSealedFields(db, fields, body), warn: warnOnce((m) => app.log.warn({ rules: true }, m)) });
  caseRoutes(app, db);
  lifecycleRoutes(app, { db, rulesFor: (hospitalId) => rules.resolverFor(hospitalId), registrationForm: async (hospitalId) => schemas.formOfContract(await contracts.ownContractFor(schemas.base('CaseRegistration'), hospitalId)), his: hisAdapter(config.his, db) });
  diagnosisModule(app, { db, systemDb, rules, dataDir, storage, publicUrl: config.publicUrl, outbound: config.reportOutbound, fhir: config.fhirOutbound, hl7: config.hl7, font: config.reportFont });
  collectionRoutes(app, db, resources.find((r) => r.name === 'collections')!);
  logRoutes(app, db);
  commonRoutes(app, config.distDir, db);
  // Slides only through the slides table (their hospital and directory checked): no file-name path (issue 27).
  // A file on object storage (the default bucket's or an area's) is read through that storage's block cache.
  const remote = (file: string) => areas.remoteFor(file);
  const tiles = tileRoutes(app, db, config, { resolveSlide: databaseSlideResolver(systemDb, dataDir, areas), resolveSession: sessions, remote });
  const tileLane = tileFastLane(tiles, sessions, config.iiifCorsOrigins);
  fastLanes.push(tileLane);
  // A closing server answers through Fastify, which sends 503 and closes kept-alive connections.
  app.addHook('preClose', async () => tileLane.close());
  slideRoutes(app, db, systemDb, dataDir, resources.find((r) => r.name === 'slides')!, hooks.slides, areas);
  uploadRoutes(app, config, db, scannerUploads(db));
  jobRoutes(app, db);
  annotationRoutes(app, db);
  messageRoutes(app, db);
  caseImageRoutes(app, db, storage);
  realtimeRoutes(app, realtime);
  shareRoutes(app, db, systemDb, tiles, sessions);
  meetingRoutes(app, db, realtime);
  consultationRoutes(app, db, systemDb, {
    rulesFor: (hospitalId) => rules.resolverFor(hospitalId),
    stateLabel: (state, lang) => (enums.consultation_status?.find((o) => o.value === state)?.label as Record<string, string> | undefined)?.[lang] ?? state,
    rateLimitPerMinute: config.authRateLimitPerMinute,
  });
  examRoutes(app, db);
  focusRoutes(app, db);
  scannerRoutes(app, db, systemDb, areas);
  statisticRoutes(app, db);
  labelRoutes(app, db);
  slideLabelRoutes(app, db);
  dicomwebRoutes(app, db, tiles);
  outerRoutes(app, db, tiles, { publicUrl: config.publicUrl, ocr: config.ocr, secrets });

  await registerStaticSite(app, config.distDir);
  return app;
}
