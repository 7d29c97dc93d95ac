import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import { slideIn } from '../slides/queries.js';
import { focusOf } from './queries.js';
import { okResponse } from '../../http/responses.js';

const Id = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }) });

/**
 * `GET /api/data/kfb/:id/focus`: a slide's focus map for the viewer's heat overlay (one byte a cell, base64, row by
 * row; a cell covers `cell_width × cell_height` level-0 pixels) and its score. `slide_view` in the slide's hospital.
 */
export function focusRoutes(app: TypedApp, db: Db): void {
  app.get('/api/data/kfb/:id/focus', {
    config: { access: { permission: 'slide_view' } },
    schema: { tags: ['slides'], params: Id, response: okResponse() },
  }, async (request) => {
    const { id } = request.params;
    if (!(await slideIn(db, id))) throw new AppError(404, 'slide.not_found');
    const f = await focusOf(db, id);
    if (!f) throw new AppError(404, 'focus.not_checked');
    return ok({
      slide_id: f.slide_id, level: f.level, cols: f.cols, rows: f.rows, cell_width: Number(f.cell_width), cell_height: Number(f.cell_height),
      threshold: Number(f.threshold), tissue_cells: f.tissue_cells, blurred_cells: f.blurred_cells, blur_share: Number(f.blur_share),
      map: f.map, created_at: f.created_at,
    });
  });
}
