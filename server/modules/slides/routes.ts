import path from 'node:path';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError, forbidden, unauthenticated } from '../../http/errors.js';
import { screenLocked } from '../../http/screen-lock.js';
import { imageCookieToken } from '../../http/image-cookie.js';
import type { TypedApp } from '../../http/types.js';
import type { ResourceDef } from '../../resources/definition.js';
import type { ResourceHooks } from '../../resources/hooks/types.js';
import { parseListQuery } from '../../resources/list-query.js';
import { getRow, listRows } from '../../resources/queries.js';
import { IMAGE_PERMISSION, IMAGE_SECURITY, mayViewImages } from '../tiles/image-access.js';
import { sessionFromToken } from '../users/queries.js';
import { mayBindUpload } from '../upload/ownership.js';
import { placeUpload } from './place-upload.js';
import { fromStored, isInside, slidesRoot, thumbPath, toStored, uploadsCompleteRoot } from './paths.js';
import { hospitalScope, workingHospital } from '../../http/hospital-scope.js';
import { namedCase } from '../cases/lookup.js';
import { caseBindingRoutes } from './case-binding.js';
import { derivedNames } from './conversion/derived-names.js';
import { downloadRoutes } from './download.js';
import { dicomExportRoutes } from './dicom/routes.js';
import { registerSlide } from './register.js';
import { PROCESSING } from './resolver.js';
import { fileBound, linkSection, sectionForBinding, slideIn, slideStatus } from './queries.js';
import { sectionRoutes } from './sections.js';
import { logSlides } from './section-log.js';
import { viewerLocateRoutes } from './viewer-locate.js';
import { viewerOpenRoutes } from './viewer-open.js';
import { isNotFound } from '../../storage/errors.js';
import type { AreaStorages, SlidePlace } from '../../storage/area-storages.js';
import { hospitalPlace, slidePlace } from '../areas/place.js';
import { binaryResponse, okResponse } from '../../http/responses.js';

const BindBody = Type.Object({
  path: Type.String({ minLength: 1, maxLength: 1024, description: 'The path a completed upload answered, relative to the data dir' }),
  case_id: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  /** The case by its number instead of its id (what a technician reads off the slide label). */
  pathology_number: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  /** The glass slide (sectionAdd) this file is the scan of; its case is the slide's case. */
  section_id: Type.Optional(Type.Integer({ minimum: 1 })),
});
const Id = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/** Spec §7 slide routes beyond the generic resource API: bind an uploaded file, its thumbnail, a case's slides. */
/** `systemDb`: only the signed download link's file route, whose signature is its grant (download.ts). */
/**
 * `areas`: where slide files are: the default storage (the data directory, or STORAGE_URL's bucket), where uploads
 * finish, and the storages of the hospital areas, where their hospitals' bound slides go (issue 29).
 */
export function slideRoutes(app: TypedApp, db: Db, systemDb: Db, dataDir: string, def: ResourceDef, hooks: ResourceHooks, areas: AreaStorages): void {
  const { storage } = areas.base;
  const tags = ['resource:slides'];

  app.post('/api/data/kfb/bind', { config: { access: { permission: 'slide_upload' } }, schema: { tags, body: BindBody, response: okResponse() } }, async (request) => {
    const { body } = request;
    const hospitalId = workingHospital(request);
    const section = body.section_id ? await sectionForBinding(db, hospitalId, body.section_id) : null;
    const caseId = section ? section.case_id : await namedCase(db, hospitalId, body);
    const source = fromStored(dataDir, body.path);
    const uploads = uploadsCompleteRoot(dataDir);
    const slides = slidesRoot(dataDir);
    // Thumbnails live under slides/ too, but are ours, not slides.
    const allowed = isInside(uploads, source) || (isInside(slides, source) && !isInside(path.join(slides, 'thumbs'), source));
    if (!allowed) throw new AppError(422, 'slide.path_not_allowed', { path: body.path });
    // A finished upload is its uploader's (or, with upload_bind_any, its hospital's): checked before the disk is.
    // A file already under slides/ (put there by an operator) has no uploader: like an upload without an owner,
    // only upload_bind_any may place it in a hospital.
    const owned = isInside(uploads, source) ? path.relative(uploads, source).split(path.sep)[0]! : '';
    if (!mayBindUpload(request.auth!, hospitalId, owned)) throw new AppError(403, 'upload.not_yours', { path: body.path });
    const stat = await storage.stat(toStored(dataDir, source)).catch(() => null);
    // A folder is a DICOM series an operator put under slides/; uploads are single files (a series arrives zipped).
    const seriesFolder = !!stat?.folder && isInside(slides, source);
    if ((!stat || stat.folder) && !seriesFolder) throw new AppError(422, 'slide.file_missing', { path: body.path });
    // A converted original (photo, striped TIFF, Deep Zoom, DICOM zip) is bound through what was made from it:
    // binding it again would convert over the file being served.
    const stored = [source, ...derivedNames(source)].map((p) => toStored(dataDir, p));
    if (await fileBound(db, stored)) throw new AppError(409, 'slide.already_bound');

    // Finished uploads move into slides/<yyyy>/<mm>/ of the hospital's area storage (the default one without an
    // area); a file already under slides/ is read where it is, from the default storage.
    let file = source;
    let putBack = async () => {};
    let area: { areaId: number | null; place: SlidePlace } = { areaId: null, place: areas.base };
    if (isInside(uploads, source)) {
      // A Deep Zoom descriptor brings a folder of tiles, which only the default storage's move carries.
      if (path.extname(source).toLowerCase() !== '.dzi') area = await hospitalPlace(db, areas, hospitalId);
      ({ file, putBack } = await placeUpload(areas, source, area).catch((err) => {
        // A concurrent bind of the same upload moved it first.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' || isNotFound(err)) throw new AppError(422, 'slide.file_missing', { path: body.path });
        throw err;
      }));
    }
    const { place } = area;
    const user = request.auth!;
    // Answered at once, 'ingesting': the ingest job (ingest.ts) reads the file. A failed insert leaves the
    // upload where it was, to be bound again.
    const id = await registerSlide(db, place.root, file, {
      name: body.name ?? path.basename(source, path.extname(source)),
      hospital_id: hospitalId,
      case_id: caseId,
      uploaded_by: user.id,
      area_id: area.areaId,
    }, place.storage).catch(async (err) => {
      // Should that fail too, the file stays under slides/: orphaned, never lost.
      await putBack().catch((e) => request.log.error({ err: e, file }, 'bind: could not put the upload back'));
      throw err;
    });
    // Checked empty above; a concurrent bind of the same section loses the link, not the file.
    if (section) await linkSection(db, section.id, id);
    const row = await getRow(db, def, hooks, id, [hospitalId]);
    await logSlides(db, 'bind', [{ id, name: String(row.name), case_id: (row.case_id as number | null) ?? null, file_path: String(row.file_path) }], user);
    return ok(row);
  });

  // An <img> cannot send an Authorization header, so the image cookie is accepted as the tile routes do.
  app.get('/api/data/kfb/thumb/:id', {
    config: { access: 'public' },
    schema: { tags, params: Id, security: IMAGE_SECURITY, response: binaryResponse('image/jpeg') },
    // The cookie's session before the handler: the request's access scope is made from it (access-scope.ts).
    onRequest: (request) => cookieSession(db, request),
  }, async (request, reply) => {
    requireSlideView(request);
    const { id } = request.params;
    // Any hospital of the user's: a thumbnail shown with show-all-data on must load too.
    if (!(await slideIn(db, id))) throw new AppError(404, 'slide.not_found');
    const { status, area_id } = await slideStatus(db, id);
    // Not made yet (or being remade): said so, rather than a missing or stale picture.
    if (PROCESSING.has(status)) throw new AppError(409, 'slide.processing');
    // In the storage of the slide's hospital area, or the default one.
    const { root, storage } = await slidePlace(db, areas, area_id);
    const key = toStored(root, thumbPath(root, id));
    const stat = await storage.stat(key);
    if (!stat) throw new AppError(404, 'slide.thumb_missing');
    const etag = `"thumb-${id}-${stat.size}-${Math.trunc(stat.mtimeMs)}"`;
    reply.header('etag', etag).header('cache-control', 'private, max-age=3600');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    // A thumbnail is at most 512 px square: one read, whichever the backend.
    const jpeg = await storage.readRange(key, 0, stat.size).catch((err: unknown) => {
      if (isNotFound(err)) throw new AppError(404, 'slide.thumb_missing');
      throw err;
    });
    return sendJpeg(reply, jpeg);
  });

  app.get('/api/slide_making/slide/lists/:id', {
    config: { access: { permission: def.permissions.list }, audit: false },
    schema: { tags, params: Id, response: okResponse() },
  }, async (request) => {
    const { id } = request.params;
    const q = { ...parseListQuery(request.query as Record<string, unknown>, def), scope: hospitalScope(def, request) };
    q.filter.push({ column: 'case_id', operator: '=', value: id, condition: 'and' });
    return ok(await listRows(db, def, hooks, q));
  });

  caseBindingRoutes(app, db, def);
  sectionRoutes(app, db, def);
  downloadRoutes(app, db, systemDb, def, areas);
  dicomExportRoutes(app, db, def, areas);
  viewerOpenRoutes(app, db);
  viewerLocateRoutes(app, db, dataDir);
}

/** The bearer header (checked by the guard) or else the image cookie; never a token in the URL. */
/** The image cookie's session, when the request has no bearer header's. */
async function cookieSession(db: Db, request: FastifyRequest): Promise<void> {
  if (request.auth) return;
  const token = imageCookieToken(request.headers.cookie);
  if (token) request.auth = await sessionFromToken(db, token);
}

function requireSlideView(request: FastifyRequest): void {
  if (!request.auth) throw unauthenticated();
  // A session found here, from the cookie, was not seen by the guard's screen-lock check.
  if (request.auth.screenLocked) throw screenLocked();
  if (!mayViewImages(request.auth)) throw forbidden(IMAGE_PERMISSION);
}

const sendJpeg = (reply: FastifyReply, body: Buffer) => reply.type('image/jpeg').send(body);
