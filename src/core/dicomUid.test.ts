import { describe, expect, it } from 'vitest';
import { decodeUid, encodeUid, uidTag } from './dicomUid.js';

const NS = '0123456789ab';

describe('stable DICOM UIDs', () => {
  it('decode back to what they were made of', () => {
    for (const parts of [
      { kind: 'caseStudy', id: 1, sub: 0, tag: 0 },
      { kind: 'instance', id: 2 ** 32 - 1, sub: 65535, tag: 0x3fff },
      { kind: 'series', id: 42, sub: 0, tag: uidTag('slides/a.tiff') },
    ] as const) {
      const uid = encodeUid(NS, parts);
      expect(uid).toMatch(/^2\.25\.[1-9]\d*$/);
      expect(uid.length).toBeLessThanOrEqual(64);
      expect(decodeUid(NS, uid)).toEqual(parts);
    }
  });

  it('are the same for the same parts and differ for any other', () => {
    const a = encodeUid(NS, { kind: 'instance', id: 7, sub: 1, tag: 5 });
    expect(encodeUid(NS, { kind: 'instance', id: 7, sub: 1, tag: 5 })).toBe(a);
    expect(new Set([
      a,
      encodeUid(NS, { kind: 'instance', id: 7, sub: 2, tag: 5 }),
      encodeUid(NS, { kind: 'instance', id: 8, sub: 1, tag: 5 }),
      encodeUid(NS, { kind: 'series', id: 7, sub: 1, tag: 5 }),
      encodeUid('0123456789ac', { kind: 'instance', id: 7, sub: 1, tag: 5 }),
    ]).size).toBe(5);
  });

  it('refuse another namespace, another layout and text that is no UID', () => {
    const uid = encodeUid(NS, { kind: 'series', id: 3, sub: 0, tag: 1 });
    expect(decodeUid('ba9876543210', uid)).toBeNull();
    expect(decodeUid(NS, '2.25.1234')).toBeNull();
    expect(decodeUid(NS, `${uid}0`)).toBeNull();
    expect(decodeUid(NS, '1.2.840.10008.1.2')).toBeNull();
    expect(decodeUid(NS, `2.25.0${uid.slice(5)}`)).toBeNull();
    expect(decodeUid(NS, `${uid.slice(0, -1)}x`)).toBeNull();
    expect(decodeUid(NS, '2.25.' + '9'.repeat(39))).toBeNull();
  });

  it('refuse parts out of range', () => {
    expect(() => encodeUid(NS, { kind: 'series', id: 2 ** 32, sub: 0, tag: 0 })).toThrow();
    expect(() => encodeUid(NS, { kind: 'series', id: 1, sub: 0, tag: 0x4000 })).toThrow();
    expect(() => encodeUid('xyz', { kind: 'series', id: 1, sub: 0, tag: 0 })).toThrow();
  });

  it('tag a text into 14 bits', () => {
    expect(uidTag('a')).toBeLessThan(0x4000);
    expect(uidTag('slides/x.tiff')).toBe(uidTag('slides/x.tiff'));
    expect(uidTag('slides/x.tiff')).not.toBe(uidTag('slides/y.tiff'));
  });
});
