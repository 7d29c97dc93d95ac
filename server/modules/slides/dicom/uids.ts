import { randomBytes } from 'node:crypto';
import { encodeUid, uidTag } from '../../../../src/core/dicomUid.js';

/** A new UID under the 2.25 root (ISO/IEC 9834-8: a random 128-bit number as decimal), unique without a registered root. */
export function newUid(): string {
  return `2.25.${BigInt(`0x${randomBytes(16).toString('hex')}`).toString(10)}`;
}

/** The slide a series is made of: its id, its case (the study) and its stored file (what its pixels are). */
export interface UidSubject {
  id: number;
  case_id: number | null;
  file_path: string;
}

/** Every UID of one slide's series; the same on every call (src/core/dicomUid.ts). */
export interface SeriesUids {
  study: string;
  series: string;
  frameOfReference: string;
  dimensionOrganization: string;
  pyramid: string;
  specimen: string;
  /** SOP Instance UID of instance `number` (1-based: the levels, then label, macro, thumbnail). */
  instance(number: number): string;
}

/**
 * The UIDs DICOMweb and the zip export give slide `slide`: its case's study (a slide of no case is a study of its
 * own), and a series, instances and the rest that change when its file does.
 */
export function seriesUids(namespace: string, slide: UidSubject): SeriesUids {
  const tag = uidTag(slide.file_path);
  const of = (kind: 'series' | 'frameOfReference' | 'dimensionOrganization' | 'pyramid' | 'specimen') => encodeUid(namespace, { kind, id: slide.id, sub: 0, tag });
  return {
    study: studyUid(namespace, slide),
    series: of('series'), frameOfReference: of('frameOfReference'), dimensionOrganization: of('dimensionOrganization'),
    pyramid: of('pyramid'), specimen: of('specimen'),
    instance: (number) => encodeUid(namespace, { kind: 'instance', id: slide.id, sub: number, tag }),
  };
}

export function studyUid(namespace: string, slide: Pick<UidSubject, 'id' | 'case_id'>): string {
  return slide.case_id === null
    ? encodeUid(namespace, { kind: 'slideStudy', id: slide.id, sub: 0, tag: 0 })
    : encodeUid(namespace, { kind: 'caseStudy', id: slide.case_id, sub: 0, tag: 0 });
}
