import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptsInstances, frameForm, parseFrameList } from '../../../src/core/dicomwebAccept.js';
import { parseQidoQuery, QidoQueryError, type QidoLevel, type QidoQuery } from '../../../src/core/qidoQuery.js';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { binaryResponse, OpenRow } from '../../http/responses.js';
import type { TypedApp } from '../../http/types.js';
import { logSlides } from '../slides/section-log.js';
import type { SeriesInstance } from '../slides/dicom/series-instances.js';
import sharp from '../tiles/vips.js';
import type { TileService } from '../tiles/tile-service.js';
import { toDicomJson } from './dicom-json.js';
import { multipartRelated, type Part } from './multipart.js';
import { searchInstances, searchSeries, searchStudies } from './qido.js';
import { instanceOf, openSeries, type OpenedSeries } from './series-access.js';

/** The DICOMweb base URL a client is given (QIDO-RS and WADO-RS alike). */
export const DICOMWEB_BASE = '/api/dicomweb';
/** Frames one request may name: a viewer asks for one at a time; more would hold a request for long. */
export const MAX_FRAMES_PER_REQUEST = 64;

const DICOM_JSON = 'application/dicom+json';
/** Searching and reading a slide's pixels is viewing it (the tile routes' permission); whole instances are a download. */
const VIEW = 'slide_view';
const DOWNLOAD = 'slide_download';

const Uid = Type.String({ minLength: 1, maxLength: 64, pattern: '^[0-9]+(\\.[0-9]+)*$' });
const StudyPath = Type.Object({ study: Uid });
const SeriesPath = Type.Object({ study: Uid, series: Uid });
const InstancePath = Type.Object({ study: Uid, series: Uid, instance: Uid });
const FramesPath = Type.Object({ study: Uid, series: Uid, instance: Uid, frames: Type.String({ minLength: 1, maxLength: 500 }) });
/**
 * The query keys DSMS matches on, by keyword (tags work too); any other key is let through, ignored and named back in
 * a Warning header (src/core/qidoQuery.ts reads and bounds them all).
 */
const Text = Type.Optional(Type.String({ maxLength: 6500 }));
const QidoParams = Type.Object({
  StudyInstanceUID: Text, SeriesInstanceUID: Text, SOPInstanceUID: Text, PatientID: Text, PatientName: Text, AccessionNumber: Text,
  Modality: Text, ModalitiesInStudy: Text, SOPClassUID: Text, limit: Text, offset: Text,
  includefield: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 50 })])),
}, { additionalProperties: true });

const jsonResponse = { '2xx': { content: { [DICOM_JSON]: { schema: Type.Array(OpenRow) } } } };
/** What frames and instances come as (the parts' types are in docs/dicomweb.md: image/jpeg, application/octet-stream, application/dicom). */
const FRAME_TYPES = ['multipart/related; type="image/jpeg"', 'multipart/related; type="application/octet-stream"', 'image/jpeg'];
const INSTANCE_TYPES = ['multipart/related; type="application/dicom"'];
const TAGS = ['dicomweb'];

/**
 * DICOMweb over the slides (issue 30): QIDO-RS searches for studies (a case, or a slide of no case), series (a
 * slide) and instances (its pyramid levels, label, macro, thumbnail), and WADO-RS metadata, frames and whole
 * instances, built on the DICOM WSI export (slides/dicom/series-instances.ts) with its stable UIDs. Signed in with
 * the bearer token, as every /api route; what a search finds and a read reaches is the request's row scope (the
 * scoped handle), so another hospital's slide is not found. Frames are read from the slide's tiles one at a time
 * (stored JPEGs copied), never by making the whole instance. docs/dicomweb.md has the details.
 */
export function dicomwebRoutes(app: TypedApp, db: Db, tiles: TileService): void {
  const view = { config: { access: { permission: VIEW } } };

  const qido = (level: QidoLevel, request: FastifyRequest, fixed: Partial<QidoQuery>): QidoQuery => {
    let q: QidoQuery;
    try {
      q = parseQidoQuery(level, request.query as Record<string, string | string[] | undefined>);
    } catch (err) {
      if (err instanceof QidoQueryError) throw new AppError(400, 'dicomweb.bad_query', { key: err.key.slice(0, 64), value: err.value });
      throw err;
    }
    return { ...q, ...fixed };
  };
  const answerJson = (reply: FastifyReply, q: QidoQuery | null, body: unknown) => {
    if (q?.ignored.length) reply.header('warning', `299 DSMS "These query keys are not supported and were ignored: ${q.ignored.map((k) => k.replace(/[^\w.]/g, '')).join(', ').slice(0, 500)}"`);
    return reply.type(DICOM_JSON).header('cache-control', 'private, no-store').send(Buffer.from(JSON.stringify(body)));
  };

  // QIDO-RS.
  app.get(`${DICOMWEB_BASE}/studies`, {
    ...view,
    schema: { tags: TAGS, querystring: QidoParams, summary: 'QIDO-RS: search for studies (a case, or a slide of no case)', response: jsonResponse },
  }, async (request, reply) => {
    const q = qido('studies', request, {});
    return answerJson(reply, q, await searchStudies(db, q));
  });
  app.get(`${DICOMWEB_BASE}/series`, {
    ...view,
    schema: { tags: TAGS, querystring: QidoParams, summary: 'QIDO-RS: search for series (one per slide) of all studies', response: jsonResponse },
  }, async (request, reply) => {
    const q = qido('series', request, {});
    return answerJson(reply, q, await searchSeries(db, tiles, request, q));
  });
  app.get(`${DICOMWEB_BASE}/instances`, {
    ...view,
    schema: { tags: TAGS, querystring: QidoParams, summary: 'QIDO-RS: search for instances of all series', response: jsonResponse },
  }, async (request, reply) => {
    const q = qido('instances', request, {});
    return answerJson(reply, q, await searchInstances(db, tiles, request, q));
  });
  app.get(`${DICOMWEB_BASE}/studies/:study/series`, {
    ...view,
    schema: { tags: TAGS, params: StudyPath, querystring: QidoParams, summary: 'QIDO-RS: search for series of a study', response: jsonResponse },
  }, async (request, reply) => {
    const q = qido('series', request, { studyUids: [request.params.study] });
    return answerJson(reply, q, await searchSeries(db, tiles, request, q));
  });
  app.get(`${DICOMWEB_BASE}/studies/:study/instances`, {
    ...view,
    schema: { tags: TAGS, params: StudyPath, querystring: QidoParams, summary: 'QIDO-RS: search for instances of a study', response: jsonResponse },
  }, async (request, reply) => {
    const q = qido('instances', request, { studyUids: [request.params.study] });
    return answerJson(reply, q, await searchInstances(db, tiles, request, q));
  });
  app.get(`${DICOMWEB_BASE}/studies/:study/series/:series/instances`, {
    ...view,
    schema: { tags: TAGS, params: SeriesPath, querystring: QidoParams, summary: 'QIDO-RS: search for instances of a series', response: jsonResponse },
  }, async (request, reply) => {
    const { study, series } = request.params;
    const q = qido('instances', request, { studyUids: [study], seriesUids: [series] });
    return answerJson(reply, q, await searchInstances(db, tiles, request, q));
  });

  // WADO-RS metadata: every attribute but Pixel Data, the ICC profile inline.
  app.get(`${DICOMWEB_BASE}/studies/:study/series/:series/metadata`, {
    ...view,
    schema: { tags: TAGS, params: SeriesPath, summary: 'WADO-RS: metadata of every instance of a series (DICOM JSON)', response: jsonResponse },
  }, async (request, reply) => {
    const opened = await openSeries(db, tiles, request, request.params.study, request.params.series);
    const subject = await opened.subject();
    const body = [];
    for (const instance of opened.series.instances) body.push(toDicomJson(await opened.series.dataset(instance, subject)));
    return answerJson(reply, null, body);
  });
  app.get(`${DICOMWEB_BASE}/studies/:study/series/:series/instances/:instance/metadata`, {
    ...view,
    schema: { tags: TAGS, params: InstancePath, summary: 'WADO-RS: metadata of an instance (DICOM JSON)', response: jsonResponse },
  }, async (request, reply) => {
    const opened = await openSeries(db, tiles, request, request.params.study, request.params.series);
    const instance = instanceOf(opened, request.params.instance);
    return answerJson(reply, null, [toDicomJson(await opened.series.dataset(instance, await opened.subject()))]);
  });

  // WADO-RS frames: the tiles, JPEG baseline as stored, or decoded for a client that asks for uncompressed pixels.
  app.get(`${DICOMWEB_BASE}/studies/:study/series/:series/instances/:instance/frames/:frames`, {
    ...view,
    // A viewer asks for tens of frames a second: errors still log.
    logLevel: 'warn',
    schema: { tags: TAGS, params: FramesPath, summary: `WADO-RS: frames of an instance (1-based, comma-separated, at most ${MAX_FRAMES_PER_REQUEST})`, response: binaryResponse('multipart/related', 'image/jpeg') },
  }, async (request, reply) => {
    const { study, series, instance: sop, frames: list } = request.params;
    const parsed = parseFrameList(list, MAX_FRAMES_PER_REQUEST);
    if ('error' in parsed) {
      throw parsed.error === 'too_many'
        ? new AppError(400, 'dicomweb.too_many_frames', { limit: MAX_FRAMES_PER_REQUEST })
        : new AppError(400, 'dicomweb.bad_frames', { frames: list.slice(0, 100) });
    }
    const form = frameForm(request.headers.accept, parsed.frames.length);
    if (!form) throw notAcceptable(request, FRAME_TYPES);
    const opened = await openSeries(db, tiles, request, study, series);
    const instance = instanceOf(opened, sop);
    const beyond = parsed.frames.find((n) => n > instance.frames);
    if (beyond !== undefined) throw new AppError(404, 'dicomweb.frame_out_of_range', { frame: beyond, frames: instance.frames });
    const frame = async (n: number) => {
      const jpeg = await opened.series.frame(instance, n);
      return form.pixels === 'jpeg' ? jpeg : sharp(jpeg).removeAlpha().raw().toBuffer();
    };
    const cached = (r: FastifyReply) => r.header('cache-control', 'private, max-age=3600').header('vary', 'accept');
    // The first frame before the status is sent: an unreadable tile is an error answer, not a body cut short.
    const first = await frame(parsed.frames[0]);
    if (!form.multipart) return cached(reply).type(form.contentType).send(first);
    const body = multipartRelated(form.contentType, (async function* () {
      yield first;
      for (const n of parsed.frames.slice(1)) yield await frame(n);
    })());
    return cached(reply).type(body.contentType).send(body.body);
  });

  // WADO-RS instances: Part 10 files, JPEG baseline, streamed frame by frame (a download, as the zip export is).
  const sendInstances = async (request: FastifyRequest, reply: FastifyReply, opened: OpenedSeries, instances: SeriesInstance[]) => {
    if (!acceptsInstances(request.headers.accept)) throw notAcceptable(request, INSTANCE_TYPES);
    const subject = await opened.subject();
    await logSlides(db, 'export_dicom', [opened.row], request.auth!);
    const body = multipartRelated('application/dicom; transfer-syntax=1.2.840.10008.1.2.4.50', (async function* (): AsyncGenerator<Part> {
      for (const instance of instances) yield opened.series.file(instance, subject);
    })());
    return reply.type(body.contentType).header('cache-control', 'private, no-store').send(body.body);
  };
  app.get(`${DICOMWEB_BASE}/studies/:study/series/:series`, {
    config: { access: { permission: DOWNLOAD } },
    schema: { tags: TAGS, params: SeriesPath, summary: 'WADO-RS: every instance of a series as DICOM files (JPEG baseline)', response: binaryResponse('multipart/related') },
  }, async (request, reply) => {
    const opened = await openSeries(db, tiles, request, request.params.study, request.params.series);
    return sendInstances(request, reply, opened, opened.series.instances);
  });
  app.get(`${DICOMWEB_BASE}/studies/:study/series/:series/instances/:instance`, {
    config: { access: { permission: DOWNLOAD } },
    schema: { tags: TAGS, params: InstancePath, summary: 'WADO-RS: an instance as a DICOM file (JPEG baseline)', response: binaryResponse('multipart/related') },
  }, async (request, reply) => {
    const opened = await openSeries(db, tiles, request, request.params.study, request.params.series);
    return sendInstances(request, reply, opened, [instanceOf(opened, request.params.instance)]);
  });
}

function notAcceptable(request: FastifyRequest, offered: string[]): AppError {
  return new AppError(406, 'dicomweb.not_acceptable', { accept: String(request.headers.accept ?? '').slice(0, 200), offered: offered.join(', ') });
}
