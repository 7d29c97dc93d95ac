import { describe, expect, it } from 'vitest';
import { pick, tagOf, toDicomJson } from '../../server/modules/dicomweb/dicom-json.js';

describe('data sets in the DICOM JSON model (PS3.18 F.2)', () => {
  it('writes tags in hex order, numbers as numbers, names as { Alphabetic }, binary inline, empty values without Value', () => {
    const json = toDicomJson({
      Rows: 256, PixelSpacing: ['0.00025', '0.00025'], PatientName: '张三', PatientID: '', ImageType: ['DERIVED', 'PRIMARY', 'VOLUME', 'NONE'],
      OpticalPathSequence: [{ ICCProfile: new Uint8Array([1, 2, 3]).buffer, OpticalPathIdentifier: '1' }], AcquisitionContextSequence: [],
    });
    expect(Object.keys(json)).toEqual([...Object.keys(json)].sort());
    expect(json).toEqual({
      '00080008': { vr: 'CS', Value: ['DERIVED', 'PRIMARY', 'VOLUME', 'NONE'] },
      '00100010': { vr: 'PN', Value: [{ Alphabetic: '张三' }] },
      '00100020': { vr: 'LO' },
      '00280010': { vr: 'US', Value: [256] },
      '00280030': { vr: 'DS', Value: [0.00025, 0.00025] },
      '00400555': { vr: 'SQ' },
      '00480105': { vr: 'SQ', Value: [{ '00282000': { vr: 'OB', InlineBinary: 'AQID' }, '00480106': { vr: 'SH', Value: ['1'] } }] },
    });
  });

  it('names tags by keyword or hex, and keeps only the tags asked for', () => {
    expect(tagOf('TotalPixelMatrixColumns')).toBe('00480006');
    expect(tagOf('0020000d')).toBe('0020000D');
    expect(tagOf('toString')).toBeNull();
    expect(tagOf('NoSuchKeyword')).toBeNull();
    const json = toDicomJson({ Rows: 1, Columns: 2 });
    expect(pick(json, new Set(['00280010']))).toEqual({ '00280010': { vr: 'US', Value: [1] } });
    expect(pick(json, null)).toBe(json);
  });
});
