import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import type { Language } from '../../i18n/translate.js';
import { translate } from '../../i18n/translate.js';
import { slideIn } from '../slides/queries.js';
import { latestJobOfSlide, type JobRow } from './queries.js';
import { jobErrorText } from './job-error.js';
import { okResponse } from '../../http/responses.js';

const Id = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }) });
const JobFilter = Type.Object({ type: Type.Optional(Type.String({ pattern: '^[a-z_]+\\.[a-z_]+$', maxLength: 64 })) });

/**
 * `GET /api/jobs/slide/:id[?type=]`: the newest background job of a slide, or of one type (a conversion is
 * followed by its focus check), null when it never had one.
 */
export function jobRoutes(app: TypedApp, db: Db): void {
  app.get('/api/jobs/slide/:id', {
    config: { access: { permission: 'slide_view' } },
    schema: { tags: ['jobs'], params: Id, querystring: JobFilter, response: okResponse() },
  }, async (request) => {
    const { id } = request.params;
    const { type } = request.query;
    // Any hospital of the user's, as the slide lists with show-all-data on.
    if (!(await slideIn(db, id))) throw new AppError(404, 'slide.not_found');
    const job = await latestJobOfSlide(db, id, type);
    return ok(job ? jobView(job, request.lang) : null);
  });
}

/** What a client sees of a job: its state, with the step and the error in the user's language; no lease details. */
export function jobView(job: JobRow, lang: Language) {
  return {
    id: job.id,
    type: job.type,
    slide_id: job.slide_id,
    status: job.status,
    status_text: translate(lang, `job.status_${job.status}`),
    progress: job.progress,
    message: job.message,
    message_text: job.message ? translate(lang, job.message) : null,
    attempts: job.attempts,
    max_attempts: job.max_attempts,
    error: job.error,
    // A stored key is translated; an error from a tool (libvips' text) is shown as it came.
    error_text: job.error ? jobErrorText(job.error, lang) : null,
    run_after: job.run_after,
    created_at: job.created_at,
    updated_at: job.updated_at,
    finished_at: job.finished_at,
  };
}
