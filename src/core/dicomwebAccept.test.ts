import { describe, expect, it } from 'vitest';
import { acceptsInstances, frameForm, parseAccept, parseFrameList } from './dicomwebAccept.js';

describe('DICOMweb content negotiation', () => {
  it('parses media ranges with quoted parameters', () => {
    expect(parseAccept('multipart/related; type="image/jpeg"; transfer-syntax=1.2.840.10008.1.2.4.50, */*;q=0.1')).toEqual([
      { type: 'multipart/related', params: { type: 'image/jpeg', 'transfer-syntax': '1.2.840.10008.1.2.4.50' } },
      { type: '*/*', params: { q: '0.1' } },
    ]);
    expect(parseAccept(undefined)).toEqual([]);
  });

  it('gives JPEG frames for image/jpeg and for octet-stream with any transfer syntax (what dicom-microscopy-viewer asks)', () => {
    expect(frameForm('multipart/related; type="image/jpeg"', 2)).toEqual({ multipart: true, contentType: 'image/jpeg; transfer-syntax=1.2.840.10008.1.2.4.50', pixels: 'jpeg' });
    expect(frameForm('multipart/related; type="application/octet-stream"; transfer-syntax=*', 1))
      .toEqual({ multipart: true, contentType: 'application/octet-stream; transfer-syntax=1.2.840.10008.1.2.4.50', pixels: 'jpeg' });
    expect(frameForm(undefined, 1)?.pixels).toBe('jpeg');
    expect(frameForm('*/*', 1)?.multipart).toBe(true);
  });

  it('decodes for plain octet-stream (Explicit VR Little Endian), sends a lone frame bare, and refuses what it cannot give', () => {
    expect(frameForm('multipart/related; type="application/octet-stream"', 1)?.pixels).toBe('uncompressed');
    expect(frameForm('image/jpeg', 1)).toEqual({ multipart: false, contentType: 'image/jpeg', pixels: 'jpeg' });
    expect(frameForm('image/jpeg', 2)).toBeNull();
    expect(frameForm('multipart/related; type="image/jp2"', 1)).toBeNull();
    expect(frameForm('multipart/related; type="image/jpeg"; transfer-syntax=1.2.840.10008.1.2.4.70', 1)).toBeNull();
    expect(frameForm('multipart/related; type="image/jp2", multipart/related; type="image/jpeg"', 1)?.contentType).toMatch(/^image\/jpeg/);
  });

  it('takes instances as multipart application/dicom in JPEG baseline', () => {
    expect(acceptsInstances('multipart/related; type="application/dicom"')).toBe(true);
    expect(acceptsInstances('multipart/related; type="application/dicom"; transfer-syntax=*')).toBe(true);
    expect(acceptsInstances(undefined)).toBe(true);
    expect(acceptsInstances('multipart/related; type="application/dicom"; transfer-syntax=1.2.840.10008.1.2.1')).toBe(false);
    expect(acceptsInstances('application/json')).toBe(false);
  });

  it('reads frame lists within a limit', () => {
    expect(parseFrameList('1,2,30', 5)).toEqual({ frames: [1, 2, 30] });
    expect(parseFrameList('0', 5)).toEqual({ error: 'malformed' });
    expect(parseFrameList('1,,2', 5)).toEqual({ error: 'malformed' });
    expect(parseFrameList('1.5', 5)).toEqual({ error: 'malformed' });
    expect(parseFrameList('1,2,3', 2)).toEqual({ error: 'too_many' });
  });
});
