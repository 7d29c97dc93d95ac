import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../../config.js';
import type { Db } from '../../db/connect.js';
import type { SessionUser, TypedApp } from '../../http/types.js';
import { hasPermission } from '../../http/access.js';
import { AppError, forbidden, unauthenticated } from '../../http/errors.js';
import { imageCookieToken } from '../../http/image-cookie.js';
import { sessionFromToken } from '../users/queries.js';
import { registerImageCors } from './cors.js';
import { IMAGE_PERMISSION, IMAGE_SECURITY, mayViewImages } from './image-access.js';
import { parseIiifRequest } from './iiif.js';
import { caseManifest, MANIFEST_MEDIA_TYPE } from './manifest.js';
import { manifestCase, manifestSlides } from './manifest-queries.js';
import type { SlideResolver } from './resolver.js';
import type { RemoteLookup } from './slide-store.js';
import { cachedSessionResolver, type CachedSessionResolver } from './session-cache.js';
import type { CachedImage } from './tile-cache.js';
import { etagMatches, IMMUTABLE, parseDziTilePath, REVALIDATE } from './tile-http.js';
import { mayView, SlideProcessing, TileService, type SlideHandle } from './tile-service.js';
import { binaryResponse, documentResponse, redirectResponse } from '../../http/responses.js';
import { CONTENT_TYPES } from './render.js';

export interface TileRoutesOptions {
  /**
   * Slide key → file with its hospital and directory: the app passes the slides table's (databaseSlideResolver).
   * No default, and no file-name path: every image this serves is a slide row's, checked by mayView.
   */
  resolveSlide: SlideResolver;
  /** Slides in object storage: read through its block cache (the app's storage/app-storage.ts). */
  remote?: RemoteLookup;
  /**
   * Token → session for the image cookie; defaults to the guard's lookup behind a 5-second cache. The app passes
   * the guard's own cache, so one logout or administrator's change clears both paths.
   */
  resolveSession?: CachedSessionResolver;
}

/** From the app's config (config.ts decides every default). */
type TileConfig = Pick<ServerConfig, 'tileCacheMb' | 'publicUrl' | 'iiifCorsOrigins'>;

/** Reading a case (its manifest) is reading the case: the case resource's read permission. */
const CASE_PERMISSION = 'case_view';

/** Path segments, as strings of any value: each route parses its own (a bad one is a translated 404). */
const Str = Type.String();
const DescriptorPath = Type.Object({ descriptor: Str });
const DziTilePath = Type.Object({ files: Str, level: Str, tile: Str });
const AssociatedPath = Type.Object({ slideKey: Str, name: Str });
const SlidePath = Type.Object({ slideKey: Str });
const IiifImagePath = Type.Object({ slideKey: Str, region: Str, size: Str, rotation: Str, qualityFormat: Str });
const CasePath = Type.Object({ caseId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/**
 * Deep Zoom and IIIF Image API 3 over the slide files. Every request is authorised: by the guard when an
 * Authorization header is sent (from its session cache: `cachedSession`), otherwise by the image cookie
 * (image-cookie.ts) through the same cache; then `slide_view` is required. The routes are declared `public`
 * only so that the guard lets cookie requests reach the check below; none answers without a session. A token in
 * the query is not read: the bearer token never goes in a URL. Cached tiles usually never get here: see fast-lane.ts.
 */
export function tileRoutes(app: TypedApp, db: Db, config: TileConfig, options: TileRoutesOptions): TileService {
  const service = new TileService({
    resolveSlide: options.resolveSlide,
    cacheBytes: config.tileCacheMb * 2 ** 20,
    remote: options.remote,
  });
  const sessions = options.resolveSession ?? cachedSessionResolver((token) => sessionFromToken(db, token));
  app.addHook('onClose', async () => service.close());
  const publicUrl = config.publicUrl;
  registerImageCors(app, config.iiifCorsOrigins);

  // Callback style so a cached session costs no promise: this runs for every tile.
  const requireSession = (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    if (request.auth) return done(refusal(request.auth));
    const token = imageCookieToken(request.headers.cookie);
    if (!token) return done(unauthenticated());
    const cached = sessions.peek(token);
    if (cached !== undefined) {
      request.auth = cached;
      return done(refusal(cached));
    }
    sessions(token).then((session) => {
      request.auth = session;
      done(refusal(session));
    }, done);
  };
  // Another hospital's slide answers as if it did not exist.
  const visible = (request: FastifyRequest, handle: SlideHandle) => {
    if (!mayView(handle, request.auth!)) throw new AppError(404, 'slide.not_found');
    return handle;
  };
  const openFor = async (request: FastifyRequest, key: string) => {
    const handle = await service.open(key).catch((err) => {
      // Still processing, but another hospital's or directory's: as if it did not exist.
      if (err instanceof SlideProcessing && !mayView(err.owner, request.auth!)) throw new AppError(404, 'slide.not_found');
      throw err;
    });
    return visible(request, handle);
  };

  // Per-tile request logs would drown everything else (a viewer asks for ~50 tiles a second); errors still log.
  const common = { config: { access: 'public' as const, cachedSession: true }, onRequest: requireSession, logLevel: 'warn' as const };

  app.get('/api/tiles/:descriptor', {
    ...common,
    schema: { tags: ['tiles'], security: IMAGE_SECURITY, params: DescriptorPath, summary: 'Deep Zoom descriptor: GET /api/tiles/{slideKey}.dzi', response: binaryResponse('application/xml') },
  }, async (request, reply) => {
    const { descriptor } = request.params;
    if (!descriptor.endsWith('.dzi')) throw new AppError(404, 'tile.bad_address', { path: descriptor });
    const handle = await openFor(request, descriptor.slice(0, -4));
    const etag = `"${handle.slide.identity}-dzi"`;
    reply.header('etag', etag).header('cache-control', REVALIDATE);
    if (matchesEtag(request, etag)) return reply.code(304).send();
    return reply.type('application/xml; charset=utf-8').send(service.dziDescriptor(handle));
  });

  app.get('/api/tiles/:files/:level/:tile', {
    ...common,
    schema: { tags: ['tiles'], security: IMAGE_SECURITY, params: DziTilePath, summary: 'Deep Zoom tile: GET /api/tiles/{slideKey}_files/{level}/{col}_{row}.jpeg', response: binaryResponse('image/jpeg') },
  }, async (request, reply) => {
    const { files, level, tile } = request.params;
    const address = parseDziTilePath(files, level, tile);
    if (!address) throw new AppError(404, 'tile.bad_address', { path: `${files}/${level}/${tile}` });
    const { key, level: l, col, row } = address;
    const handle = visible(request, service.peek(key) ?? (await service.open(key)));
    const etag = service.dziEtag(handle, l, col, row);
    if (matchesEtag(request, etag)) return notModified(reply, etag);
    return sendImage(reply, etag, service.peekDziTile(handle, l, col, row) ?? (await service.dziTile(handle, l, col, row)));
  });

  app.get('/api/tiles/:slideKey/associated/:name', {
    ...common,
    schema: { tags: ['tiles'], security: IMAGE_SECURITY, params: AssociatedPath, summary: 'Label, macro or thumbnail image of a slide (name: label | macro | thumbnail), as JPEG', response: binaryResponse('image/jpeg') },
  }, async (request, reply) => {
    const { slideKey, name } = request.params;
    const handle = await openFor(request, slideKey);
    const etag = `"${handle.slide.identity}-${name.replace(/\W/g, '')}"`;
    if (matchesEtag(request, etag)) return notModified(reply, etag);
    return sendImage(reply, etag, await service.associated(handle, name));
  });

  app.get('/api/iiif/:slideKey', {
    ...common,
    schema: { tags: ['tiles'], security: IMAGE_SECURITY, params: SlidePath, summary: 'IIIF image service base URI: redirects to info.json', response: redirectResponse(303, 'To the image information, info.json') },
  }, async (request, reply) => {
    const { slideKey } = request.params;
    return reply.redirect(`${encodeURIComponent(slideKey)}/info.json`, 303);
  });

  app.get('/api/iiif/:slideKey/info.json', {
    ...common,
    schema: { tags: ['tiles'], security: IMAGE_SECURITY, params: SlidePath, summary: 'IIIF Image API 3 image information', response: documentResponse('application/ld+json') },
  }, async (request, reply) => {
    const { slideKey } = request.params;
    const handle = await openFor(request, slideKey);
    // From configuration, never from Host / X-Forwarded-Host: a client must not choose the address we announce.
    const id = `${publicUrl}/api/iiif/${encodeURIComponent(slideKey)}`;
    reply.header('cache-control', REVALIDATE);
    // JSON-LD media type with the IIIF profile, as the specification recommends.
    return reply.type('application/ld+json;profile="http://iiif.io/api/image/3/context.json"').send(JSON.stringify(service.iiifInfo(handle, id)));
  });

  app.get('/api/iiif/:slideKey/:region/:size/:rotation/:qualityFormat', {
    ...common,
    schema: { tags: ['tiles'], security: IMAGE_SECURITY, params: IiifImagePath, summary: 'IIIF Image API 3 image request: {region}/{size}/{rotation}/{quality}.{format}', response: binaryResponse(...Object.values(CONTENT_TYPES)) },
  }, async (request, reply) => {
    const { slideKey, region, size, rotation, qualityFormat } = request.params;
    const handle = await openFor(request, slideKey);
    const iiif = parseIiifRequest(handle.slide.index.width, handle.slide.index.height, region, size, rotation, qualityFormat);
    const etag = service.iiifEtag(handle, iiif);
    if (matchesEtag(request, etag)) return notModified(reply, etag);
    return sendImage(reply, etag, await service.iiifImage(handle, iiif));
  });

  // A case's slides for IIIF viewers: the case's rules (case_view, its hospital and directory, else 404) on top of the images'.
  app.get('/api/iiif/cases/:caseId/manifest', {
    ...common,
    schema: { tags: ['tiles'], security: IMAGE_SECURITY, params: CasePath, summary: 'IIIF Presentation API 3 manifest of a case: its slides as canvases with their image services', response: documentResponse('application/ld+json') },
  }, async (request, reply) => {
    if (!hasPermission(request.auth!, CASE_PERMISSION)) throw forbidden(CASE_PERMISSION);
    const kase = await manifestCase(db, request.params.caseId);
    if (!kase) throw new AppError(404, 'iiif.case_not_found');
    const slides = await manifestSlides(db, kase.id);
    if (!slides.length) throw new AppError(404, 'iiif.case_without_slides');
    reply.header('cache-control', REVALIDATE);
    return reply.type(MANIFEST_MEDIA_TYPE).send(JSON.stringify(caseManifest(publicUrl, kase, slides)));
  });

  return service;
}

function matchesEtag(request: FastifyRequest, etag: string): boolean {
  return etagMatches(request.headers['if-none-match'], etag);
}

function sendImage(reply: FastifyReply, etag: string, image: CachedImage) {
  return reply.headers({ etag, 'cache-control': IMMUTABLE, 'content-type': image.contentType }).send(image.body);
}

function notModified(reply: FastifyReply, etag: string) {
  return reply.code(304).header('etag', etag).header('cache-control', IMMUTABLE).send();
}

/** Why an image request may not go on, or undefined when it may. */
function refusal(session: SessionUser | null): Error | undefined {
  if (!session) return unauthenticated();
  return mayViewImages(session) ? undefined : forbidden(IMAGE_PERMISSION);
}
