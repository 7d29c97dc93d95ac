import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import send from '@fastify/send';
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import type { ResourceDef } from '../../resources/definition.js';
import { hospitalScope } from '../../http/hospital-scope.js';
import { SigningKeys } from '../../http/signing-keys.js';
import { convertedFrom } from './conversion/derived-names.js';
import { seriesDownload } from './dicom/download-series.js';
import { mayDownload } from './download-access.js';
import { DOWNLOAD_KEY_PURPOSE, DOWNLOAD_LINK_SECONDS, signDownload, verifyDownload } from './download-signing.js';
import { fromStored, toStored } from './paths.js';
import { sendStored } from './download-stored.js';
import type { AreaStorages } from '../../storage/area-storages.js';
import { slidePlace } from '../areas/place.js';
import { slideFile, slideIn } from './queries.js';
import { logSlides } from './section-log.js';
import { binaryResponse, okResponse } from '../../http/responses.js';

const Id = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const tags = ['resource:slides'];

/**
 * Spec §6 slide_download. A browser download cannot carry the bearer header, and a session token in a
 * URL would outlive the click in history and proxy logs; so the API hands out a link signed for this
 * slide and user that works for two minutes. The file route checks the signature (keys rotate daily and live
 * where no API reads them), then that the user still may download this slide: a link outlives no revocation.
 */
export function downloadRoutes(app: TypedApp, db: Db, systemDb: Db, def: ResourceDef, areas: AreaStorages): void {
  const keys = new SigningKeys(systemDb, DOWNLOAD_KEY_PURPOSE, DOWNLOAD_LINK_SECONDS * 1000);

  app.post('/api/data/kfb/download/:id', {
    config: { access: { permission: 'slide_download' } },
    schema: { tags, params: Id, response: okResponse() },
  }, async (request) => {
    const { id } = request.params;
    const slide = await slideIn(db, id, hospitalScope(def, request) ?? []);
    if (!slide) throw new AppError(404, 'slide.not_found');
    const now = Date.now();
    const link = signDownload(await keys.current(now), id, request.auth!.id, Math.floor(now / 1000));
    await logSlides(db, 'download', [slide], request.auth!);
    return ok({ url: `/api/data/kfb/file/${id}?kid=${link.kid}&user=${link.user}&expires=${link.expires}&sig=${link.sig}`, expires: link.expires });
  });

  app.get('/api/data/kfb/file/:id', {
    config: { access: 'public', audit: false },
    schema: {
      tags,
      params: Id,
      querystring: Type.Object({
        kid: Type.String({ maxLength: 32, pattern: '^[0-9a-f]+$' }),
        user: Type.Integer({ minimum: 1 }),
        expires: Type.Integer(),
        sig: Type.String({ maxLength: 128 }),
      }), response: binaryResponse('application/octet-stream', 'application/zip')
    },
  }, async (request, reply) => {
    const { id } = request.params;
    const link = request.query;
    const now = Date.now();
    const key = await keys.byId(link.kid, now);
    // One answer for every refusal: the caller learns nothing of which check failed.
    if (!key || !verifyDownload(key, id, link, Math.floor(now / 1000))) throw new AppError(403, 'slide.download_link_invalid');
    // Signed out (a browser download): the link names its user, whose rights mayDownload checks afresh.
    const slide = await slideFile(systemDb, id);
    if (!slide) throw new AppError(404, 'slide.not_found');
    if (!(await mayDownload(systemDb, link.user, slide.hospital_id))) throw new AppError(403, 'slide.download_link_invalid');
    // From the storage of the slide's hospital area (or the default one).
    const { root: dataDir, storage } = await slidePlace(systemDb, areas, slide.area_id);
    const served = fromStored(dataDir, slide.file_path);
    if (storage.kind === 's3') {
      // What was uploaded, when a converted pyramid is served from it (no DICOM series folders or Deep Zoom folders there).
      const original = convertedFrom(served);
      const wanted = original && !/\.dzi$/i.test(original) && (await storage.stat(toStored(dataDir, original))) ? original : served;
      attachment(reply, `${slide.name}${path.extname(wanted)}`);
      return sendStored(request, reply, storage, toStored(dataDir, wanted));
    }
    const series = await seriesDownload(served);
    if (series && 'zip' in series) return sendZipped(reply, `${slide.name}.zip`, series.zip);
    const file = series ? series.file : await downloadedFile(served);
    // Ranges let a browser or download manager resume a multi-gigabyte slide.
    const result = await send(request.raw, encodeURIComponent(path.basename(file)), { root: path.dirname(file), dotfiles: 'allow', acceptRanges: true, cacheControl: false });
    if (result.type === 'error') throw new AppError((result.metadata.error as { status?: number }).status === 404 ? 404 : 500, 'slide.file_missing', { path: slide.file_path });
    reply.code(result.statusCode).headers(result.headers);
    attachment(reply, `${slide.name}${path.extname(file)}`);
    if (result.type === 'directory') throw new AppError(404, 'slide.file_missing', { path: slide.file_path });
    return reply.type(result.statusCode === 206 || result.statusCode === 200 ? 'application/octet-stream' : 'text/plain').send(result.stream);
  });
}

function attachment(reply: FastifyReply, name: string): FastifyReply {
  return reply.header('content-disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`)
    .header('cache-control', 'private, no-store');
}

/** A series folder without its uploaded zip, zipped as it is sent (no ranges: the zip is made on the fly). */
function sendZipped(reply: FastifyReply, name: string, zip: Readable) {
  return attachment(reply, name).type('application/zip').send(zip);
}

/**
 * What was uploaded: for a slide served from a TIFF converted from it, the original (kept beside it), so a
 * download gives back the scanner's file. A Deep Zoom `.dzi` is a folder of tiles: its TIFF is the one file.
 */
async function downloadedFile(served: string): Promise<string> {
  const original = convertedFrom(served);
  if (!original || /\.dzi$/i.test(original)) return served;
  const stat = await fs.stat(original).catch(() => null);
  return stat?.isFile() ? original : served;
}
