import type { FastifyRequest } from 'fastify';
import { fitText } from '../../../src/core/dicomValues.js';
import type { QidoQuery } from '../../../src/core/qidoQuery.js';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { exportSubject } from '../slides/dicom/export-subject.js';
import { dicomUidNamespace } from '../slides/dicom/queries.js';
import { studyModules } from '../slides/dicom/series-instances.js';
import { studyUid } from '../slides/dicom/uids.js';
import type { TileService } from '../tiles/tile-service.js';
import { pick, tagOf, toDicomJson, type DicomJson } from './dicom-json.js';
import { seriesPage, studyPage, type SeriesRow } from './queries.js';
import { open, type OpenedSeries } from './series-access.js';

/**
 * QIDO-RS answers (PS3.18 10.6): studies, series and instances matching a query, each with the attributes the
 * standard lists for its level (Table 10.6.3-3…5) plus those `includefield` names (`all`: every one we hold). The
 * attributes are those the instances carry (series-instances.ts), so a search and a metadata read agree.
 */

/** A series to answer for, or null for a slide whose file cannot be read now (missing, being replaced): left out of a search. */
async function openable(db: Db, tiles: TileService, request: FastifyRequest, row: SeriesRow): Promise<OpenedSeries | null> {
  try {
    return await open(db, tiles, request, row);
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return null;
    throw err;
  }
}

/** The level's attributes by tag, named by keyword; looked up at the first search (dcmjs loads only then). */
const LEVEL_KEYWORDS = {
  studies: ['SpecificCharacterSet', 'StudyDate', 'StudyTime', 'AccessionNumber', 'ModalitiesInStudy', 'ReferringPhysicianName',
    'PatientName', 'PatientID', 'PatientBirthDate', 'PatientSex', 'StudyInstanceUID', 'StudyID', 'NumberOfStudyRelatedSeries', 'StudyDescription'],
  series: ['SpecificCharacterSet', 'Modality', 'SeriesDescription', 'SeriesInstanceUID', 'SeriesNumber', 'StudyInstanceUID',
    'NumberOfSeriesRelatedInstances'],
  instances: ['SpecificCharacterSet', 'SOPClassUID', 'SOPInstanceUID', 'InstanceNumber', 'StudyInstanceUID', 'SeriesInstanceUID',
    'Modality', 'Rows', 'Columns', 'NumberOfFrames', 'ImageType', 'TotalPixelMatrixColumns', 'TotalPixelMatrixRows'],
};
const levelTags = (level: keyof typeof LEVEL_KEYWORDS) => LEVEL_KEYWORDS[level].map((n) => tagOf(n)!);

/** Which attributes an answer keeps: the level's, and what `includefield` adds (names DICOM does not know are left out). */
function kept(level: keyof typeof LEVEL_KEYWORDS, q: QidoQuery): ReadonlySet<string> | null {
  if (q.includeAll) return null;
  return new Set([...levelTags(level), ...q.includeFields.map(tagOf).filter((t): t is string => t !== null)]);
}

export async function searchStudies(db: Db, q: QidoQuery): Promise<DicomJson[]> {
  const namespace = await dicomUidNamespace(db);
  const keep = kept('studies', q);
  const out: DicomJson[] = [];
  for (const study of await studyPage(db, q, namespace)) {
    const subject = await exportSubject(db, study.first_slide);
    out.push(pick(toDicomJson({
      SpecificCharacterSet: 'ISO_IR 192',
      ...studyModules(subject),
      StudyInstanceUID: studyUid(namespace, { id: study.first_slide, case_id: study.case_id }),
      ModalitiesInStudy: ['SM'],
      NumberOfStudyRelatedSeries: study.series,
    }), keep));
  }
  return out;
}

export async function searchSeries(db: Db, tiles: TileService, request: FastifyRequest, q: QidoQuery): Promise<DicomJson[]> {
  const keep = kept('series', q);
  const out: DicomJson[] = [];
  for (const row of await seriesPage(db, q, await dicomUidNamespace(db))) {
    const opened = await openable(db, tiles, request, row);
    if (!opened) continue;
    const { uids, instances } = opened.series;
    // A UID of the slide's old file decodes to its id but is no longer its series.
    if (q.seriesUids && !q.seriesUids.includes(uids.series)) continue;
    const subject = await opened.subject();
    out.push(pick(toDicomJson({
      SpecificCharacterSet: 'ISO_IR 192',
      ...studyModules(subject),
      StudyInstanceUID: uids.study, SeriesInstanceUID: uids.series,
      Modality: 'SM', SeriesNumber: 1, SeriesDescription: fitText(subject.slide.name, 64),
      NumberOfSeriesRelatedInstances: instances.length,
    }), keep));
  }
  return out;
}

/** Slides read per round while instances are counted off: offset and limit count instances, not slides. */
const SERIES_CHUNK = 20;

export async function searchInstances(db: Db, tiles: TileService, request: FastifyRequest, q: QidoQuery): Promise<DicomJson[]> {
  const keep = kept('instances', q);
  const namespace = await dicomUidNamespace(db);
  const out: DicomJson[] = [];
  let skip = q.offset;
  for (let from = 0; out.length < q.limit; from += SERIES_CHUNK) {
    const rows = await seriesPage(db, q, namespace, SERIES_CHUNK, from);
    for (const row of rows) {
      const opened = await openable(db, tiles, request, row);
      if (!opened) continue;
      if (q.seriesUids && !q.seriesUids.includes(opened.series.uids.series)) continue;
      const wanted = opened.series.instances.filter((i) => !q.sopUids || q.sopUids.includes(i.uid));
      for (const instance of wanted) {
        if (skip > 0) { skip--; continue; }
        if (out.length >= q.limit) break;
        out.push(pick(toDicomJson(await opened.series.dataset(instance, await opened.subject())), keep));
      }
    }
    if (rows.length < SERIES_CHUNK) break;
  }
  return out;
}
