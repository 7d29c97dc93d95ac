import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { hospitalScope } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import type { Storage } from '../../storage/storage.js';
import { ATTACHMENT_MAX_BYTES } from '../../../src/core/constants.js';
import { openAttachment } from '../upload/attachment-read.js';
import { formatBytes } from '../upload/format-bytes.js';
import { readDicomFacts } from './dicom-attachment.js';
import { attachmentOf, caseIn, imageIn, imagesOfCase, insertCaseImage, slideOfCase } from './queries.js';
import { binaryResponse, okResponse } from '../../http/responses.js';

const CaseId = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const Body = Type.Object({
  path: Type.String({ minLength: 1, maxLength: 1024, description: 'What POST /api/upload/image answered' }),
  slide_id: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  title: Type.Optional(Type.String({ maxLength: 200 })),
}, { additionalProperties: false });
const tags = ['cases'];
const scoped = { scope: 'hospital' };

/**
 * Case images (issue 11): an image the user uploaded (POST /api/upload/image, their own attachment) tied to a case
 * of their hospital, such as an edited viewer screenshot for the report; listed with the case, served back by id.
 * `storage`: where attachments are (the data directory, or the bucket every node of a cluster shares).
 */
export function caseImageRoutes(app: TypedApp, db: Db, storage: Storage): void {
  app.post('/api/cases/:id/images', { config: { access: { permission: 'attachment_upload' } }, schema: { tags, params: CaseId, body: Body, summary: 'Tie an uploaded image to a case', response: okResponse() } }, async (request) => {
    const kase = await caseIn(db, request.params.id, hospitalScope(scoped, request) ?? []);
    if (!kase) throw new AppError(404, 'case_image.case_not_found');
    const user = request.auth!;
    if (!(await attachmentOf(db, request.body.path, user.id))) throw new AppError(403, 'case_image.not_your_attachment');
    // A DICOM file keeps its series facts (and must be of a modality spec §5 takes); any other file is a picture.
    const dicom = await readDicomFacts(storage, request.body.path);
    const slideId = request.body.slide_id ?? null;
    // A slide of another case is not recorded as this image's source.
    const source = slideId && (await slideOfCase(db, slideId, kase.id)) ? slideId : null;
    const id = await insertCaseImage(db, { case_id: kase.id, hospital_id: kase.hospital_id, path: request.body.path, slide_id: source, title: request.body.title ?? '', created_by: user.id, ...dicom });
    if (id === null) throw new AppError(409, 'case_image.already_used');
    return ok({ id, case_id: kase.id, path: request.body.path, slide_id: source, modality: dicom?.modality ?? null, series_uid: dicom?.series_uid ?? null });
  });

  app.get('/api/cases/:id/images', { config: { access: { permission: 'case_view' } }, schema: { tags, params: CaseId, summary: 'The images of a case', response: okResponse() } }, async (request) => {
    const kase = await caseIn(db, request.params.id, hospitalScope(scoped, request) ?? []);
    if (!kase) throw new AppError(404, 'case_image.case_not_found');
    return ok(await imagesOfCase(db, kase.id));
  });

  app.get('/api/cases/images/:id/file', { config: { access: { permission: 'case_view' } }, schema: { tags, params: CaseId, summary: 'One case image\'s file (a DICOM attachment as application/dicom, for the /dicom viewer)', response: binaryResponse('image/jpeg', 'image/png', 'application/dicom') } }, async (request, reply) => {
    const image = await imageIn(db, request.params.id, hospitalScope(scoped, request) ?? []);
    if (!image) throw new AppError(404, 'case_image.not_found');
    const file = await openAttachment(storage, image.path);
    if (!file) throw new AppError(404, 'case_image.not_found');
    // Nothing larger than an upload may be is sent (an object put into the bucket by hand, say).
    if (file.size > ATTACHMENT_MAX_BYTES) {
      file.body.destroy();
      throw new AppError(413, 'case_image.too_large', { max: formatBytes(ATTACHMENT_MAX_BYTES) });
    }
    const type = image.modality ? 'application/dicom' : image.path.toLowerCase().endsWith('.png') ? 'image/png' : 'image/jpeg';
    return reply.header('cache-control', 'private, max-age=3600').header('content-length', file.size).type(type).send(file.body);
  });
}
