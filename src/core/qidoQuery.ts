/**
 * QIDO-RS search parameters (PS3.18 8.3.4, 10.6) as DSMS answers them: the matching keys it can match on the slides
 * and cases tables, by keyword or by tag; limit, offset and includefield; anything else is ignored, as the standard
 * lets a server do, and named back in a Warning header.
 */

export type QidoLevel = 'studies' | 'series' | 'instances';

export interface QidoQuery {
  studyUids?: string[];
  seriesUids?: string[];
  sopUids?: string[];
  /** Single values, `*` and `?` wildcards allowed (PS3.4 C.2.2.2.4). */
  patientId?: string;
  patientName?: string;
  accessionNumber?: string;
  /** False when a Modality or SOP Class key names none of what DSMS holds (SM, the WSI class): nothing matches. */
  possible: boolean;
  limit: number;
  offset: number;
  /** `includefield=all`, or the names (keywords or tags) to add to the level's default attributes. */
  includeAll: boolean;
  includeFields: string[];
  /** Keys given that DSMS does not match on (answered in a Warning header). */
  ignored: string[];
}

export const QIDO_DEFAULT_LIMIT = 100;
export const QIDO_MAX_LIMIT = 1000;
const MAX_OFFSET = 1_000_000;
const MAX_UIDS = 100;
const WSI_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.77.1.6';

/** Keys by keyword and by tag; which levels may match on them (a study key matches at every level below it). */
type Matcher = 'studyUids' | 'seriesUids' | 'sopUids' | 'patientId' | 'patientName' | 'accessionNumber' | 'modality' | 'sopClass';
const KEYS: Record<string, { key: Matcher; tag: string }> = {
  StudyInstanceUID: { key: 'studyUids', tag: '0020000D' },
  SeriesInstanceUID: { key: 'seriesUids', tag: '0020000E' },
  SOPInstanceUID: { key: 'sopUids', tag: '00080018' },
  PatientID: { key: 'patientId', tag: '00100020' },
  PatientName: { key: 'patientName', tag: '00100010' },
  AccessionNumber: { key: 'accessionNumber', tag: '00080050' },
  Modality: { key: 'modality', tag: '00080060' },
  ModalitiesInStudy: { key: 'modality', tag: '00080061' },
  SOPClassUID: { key: 'sopClass', tag: '00080016' },
};
const BY_TAG = Object.fromEntries(Object.values(KEYS).map((k) => [k.tag, k]));
/** The lowest level each key is an attribute of (a series key at the studies level is not a study's attribute). */
const LEVEL_OF: Partial<Record<Matcher, QidoLevel>> = { seriesUids: 'series', modality: 'series', sopUids: 'instances', sopClass: 'instances' };
const DEPTH: Record<QidoLevel, number> = { studies: 0, series: 1, instances: 2 };

export class QidoQueryError extends Error {
  constructor(readonly key: string, readonly value: string) {
    super(`bad QIDO value ${key}=${value}`);
  }
}

type Params = Record<string, string | string[] | undefined>;

const values = (v: string | string[] | undefined): string[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

function count(key: string, text: string, max: number): number {
  if (!/^\d{1,7}$/.test(text) || Number(text) > max) throw new QidoQueryError(key, text);
  return Number(text);
}

/** UIDs of a list match (`a,b` or `a\b`); each a well-formed UID, at most 100. */
function uidList(key: string, text: string): string[] {
  const uids = text.split(/[,\\]/).map((u) => u.trim()).filter(Boolean);
  if (!uids.length || uids.length > MAX_UIDS || uids.some((u) => !/^[0-9]+(\.[0-9]+)*$/.test(u) || u.length > 64)) throw new QidoQueryError(key, text.slice(0, 100));
  return uids;
}

/** A text match: at most 64 characters, no control characters; an empty value or a lone `*` matches everything. */
function text(key: string, value: string): string | undefined {
  if (value.length > 64 || [...value].some((c) => c < ' ')) throw new QidoQueryError(key, value.slice(0, 100));
  return value === '' || /^\*+$/.test(value) ? undefined : value;
}

export function parseQidoQuery(level: QidoLevel, params: Params): QidoQuery {
  const q: QidoQuery = { possible: true, limit: QIDO_DEFAULT_LIMIT, offset: 0, includeAll: false, includeFields: [], ignored: [] };
  for (const [name, raw] of Object.entries(params)) {
    const all = values(raw);
    if (!all.length) continue;
    const last = all[all.length - 1];
    if (name === 'limit') { q.limit = Math.max(1, count(name, last, QIDO_MAX_LIMIT)); continue; }
    if (name === 'offset') { q.offset = count(name, last, MAX_OFFSET); continue; }
    if (name === 'includefield') {
      for (const field of all.flatMap((v) => v.split(',')).map((f) => f.trim()).filter(Boolean)) {
        if (field === 'all') q.includeAll = true;
        else if (/^[A-Za-z0-9]{1,64}$/.test(field)) q.includeFields.push(field);
        else throw new QidoQueryError(name, field.slice(0, 100));
      }
      continue;
    }
    const known = Object.hasOwn(KEYS, name) ? KEYS[name] : Object.hasOwn(BY_TAG, name.toUpperCase()) ? BY_TAG[name.toUpperCase()] : undefined;
    const lowest = known && LEVEL_OF[known.key];
    if (!known || (lowest && DEPTH[lowest] > DEPTH[level] && known.key !== 'modality')) { q.ignored.push(name); continue; }
    switch (known.key) {
      case 'studyUids': case 'seriesUids': case 'sopUids':
        q[known.key] = uidList(name, last);
        break;
      case 'patientId': case 'patientName': case 'accessionNumber':
        q[known.key] = text(name, last);
        break;
      case 'modality':
        if (!last.split(/[,\\]/).map((m) => m.trim().toUpperCase()).includes('SM')) q.possible = false;
        break;
      case 'sopClass':
        if (!uidList(name, last).includes(WSI_SOP_CLASS)) q.possible = false;
        break;
    }
  }
  return q;
}

/** A QIDO value with `*` and `?` as a SQL LIKE pattern (escape `\`), or null when it has no wildcard. */
export function likePattern(value: string): string | null {
  if (!/[*?]/.test(value)) return null;
  return value.replace(/[\\%_]/g, (m) => `\\${m}`).replace(/\*/g, '%').replace(/\?/g, '_');
}
