import type { FastifyRequest } from 'fastify';
import { decodeUid } from '../../../src/core/dicomUid.js';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { exportSubject, type ExportSubject } from '../slides/dicom/export-subject.js';
import { dicomUidNamespace } from '../slides/dicom/queries.js';
import { SlideSeries, type SeriesInstance } from '../slides/dicom/series-instances.js';
import { seriesUids, type SeriesUids } from '../slides/dicom/uids.js';
import { mayView, type TileService } from '../tiles/tile-service.js';
import { seriesSlide, type SeriesRow } from './queries.js';

export interface OpenedSeries {
  row: SeriesRow;
  series: SlideSeries;
  /** The slide's patient, case and glass slide, read once when a data set needs them. */
  subject(): Promise<ExportSubject>;
}

const NOT_FOUND = { study: 'dicomweb.study_not_found', series: 'dicomweb.series_not_found', instance: 'dicomweb.instance_not_found' } as const;
const notFound = (what: keyof typeof NOT_FOUND, uid: string) => new AppError(404, NOT_FOUND[what], { uid: uid.slice(0, 64) });

/**
 * The series (slide) that a Study and Series Instance UID name, as the request may see it: its id comes from the
 * UID (src/core/dicomUid.ts), the row through the row-scoped handle, and both UIDs must be the ones the slide has
 * now (a forged, stale or another installation's UID, another hospital's slide: 404, as if none existed).
 */
export async function openSeries(db: Db, tiles: TileService, request: FastifyRequest, studyUid: string, seriesUid: string): Promise<OpenedSeries> {
  const namespace = await dicomUidNamespace(db);
  const parts = decodeUid(namespace, seriesUid);
  const row = parts?.kind === 'series' ? await seriesSlide(db, parts.id) : undefined;
  const uids = row && seriesUids(namespace, row);
  if (!row || !uids || uids.series !== seriesUid) throw notFound('series', seriesUid);
  if (uids.study !== studyUid) throw notFound('study', studyUid);
  return open(db, tiles, request, row, uids);
}

/** The series of a row the request has already read through its scoped handle. */
export async function open(db: Db, tiles: TileService, request: FastifyRequest, row: SeriesRow, known?: SeriesUids): Promise<OpenedSeries> {
  const uids = known ?? seriesUids(await dicomUidNamespace(db), row);
  const handle = await tiles.open(String(row.id));
  // The row was read in scope; the tile service's own record says the same (one rule for every image route).
  if (!mayView(handle, request.auth!)) throw notFound('series', uids.series);
  let subject: Promise<ExportSubject> | undefined;
  return { row, series: new SlideSeries(tiles, handle, uids), subject: () => (subject ??= exportSubject(db, row.id)) };
}

export function instanceOf(opened: OpenedSeries, uid: string): SeriesInstance {
  const instance = opened.series.instance(uid);
  if (!instance) throw notFound('instance', uid);
  return instance;
}
