import { describe, expect, it } from 'vitest';
import { likePattern, parseQidoQuery, QidoQueryError } from './qidoQuery.js';

describe('QIDO-RS query parameters', () => {
  it('reads matching keys by keyword and by tag, with limit, offset and includefield', () => {
    const q = parseQidoQuery('series', {
      StudyInstanceUID: '2.25.1,2.25.2', '0020000E': '2.25.3', PatientID: 'A*', AccessionNumber: 'P2026-00001',
      Modality: 'SM', limit: '5', offset: '10', includefield: ['00100010,StudyDescription', 'all'],
    });
    expect(q).toMatchObject({
      studyUids: ['2.25.1', '2.25.2'], seriesUids: ['2.25.3'], patientId: 'A*', accessionNumber: 'P2026-00001',
      possible: true, limit: 5, offset: 10, includeAll: true, includeFields: ['00100010', 'StudyDescription'], ignored: [],
    });
  });

  it('matches nothing for another modality or SOP class, and ignores keys it does not match on (named back)', () => {
    expect(parseQidoQuery('studies', { ModalitiesInStudy: 'CT' }).possible).toBe(false);
    expect(parseQidoQuery('instances', { SOPClassUID: '1.2.840.10008.5.1.4.1.1.2' }).possible).toBe(false);
    expect(parseQidoQuery('instances', { SOPClassUID: '1.2.840.10008.5.1.4.1.1.77.1.6' }).possible).toBe(true);
    const q = parseQidoQuery('studies', { StudyDate: '20260101', fuzzymatching: 'true', SeriesInstanceUID: '2.25.3' });
    expect(q.ignored).toEqual(['StudyDate', 'fuzzymatching', 'SeriesInstanceUID']);
    expect(q.seriesUids).toBeUndefined();
  });

  it('treats an empty value or a lone * as no constraint', () => {
    expect(parseQidoQuery('studies', { PatientID: '', PatientName: '*' })).toMatchObject({ patientId: undefined, patientName: undefined });
  });

  it('refuses bad values', () => {
    for (const params of [{ limit: '-1' }, { limit: '100000' }, { offset: 'x' }, { StudyInstanceUID: '1.2.a' }, { StudyInstanceUID: ',' },
      { PatientID: 'x'.repeat(65) }, { includefield: 'a b' }, { SeriesInstanceUID: Array(101).fill('1.2').join(',') }]) {
      expect(() => parseQidoQuery('series', params), JSON.stringify(params).slice(0, 60)).toThrow(QidoQueryError);
    }
  });

  it('turns wildcards into a LIKE pattern with the SQL ones escaped', () => {
    expect(likePattern('Zhang*')).toBe('Zhang%');
    expect(likePattern('A?_%*')).toBe('A_\\_\\%%');
    expect(likePattern('plain')).toBeNull();
  });
});
