import { describe, expect, it } from 'vitest';
import { affineFromPoints, applyAffine, baseMagnification, formatMagnification, gridLines, imageZoomFor, invertAffine, magnificationAt, scaleBar } from './viewerScale';

describe('magnification', () => {
  it('takes the scanner\'s objective, else 10 µm / mpp, else 40×', () => {
    expect(baseMagnification(20, 0.25)).toBe(20);
    expect(baseMagnification(null, 0.25)).toBe(40);
    expect(baseMagnification(undefined, 0.5)).toBe(20);
    expect(baseMagnification(null, null)).toBe(40);
  });
  it('converts between magnification and image zoom', () => {
    expect(magnificationAt(0.5, 40)).toBe(20);
    expect(imageZoomFor(10, 40)).toBe(0.25);
    expect(formatMagnification(40)).toBe('40×');
    expect(formatMagnification(2.5)).toBe('2.5×');
    expect(formatMagnification(0.123)).toBe('0.12×');
  });
});

describe('scale bar', () => {
  it('picks the longest 1-2-5 length that fits, in µm or mm', () => {
    // 0.25 µm/px at zoom 1: 160 px = 40 µm → 20 µm bar of 80 px.
    expect(scaleBar(0.25, 1)).toEqual({ widthPx: 80, label: '20 µm' });
    // 0.25 µm/px at zoom 0.01: 25 µm a screen pixel, 160 px = 4 mm → 2 mm.
    expect(scaleBar(0.25, 0.01)).toEqual({ widthPx: 80, label: '2 mm' });
    expect(scaleBar(0.5, 1, 100)).toEqual({ widthPx: 100, label: '50 µm' });
  });
  it('has no scale without a pixel size', () => {
    expect(scaleBar(null, 1)).toBeNull();
    expect(scaleBar(0, 1)).toBeNull();
  });
});

describe('image ↔ screen affine map', () => {
  it('inverts what it applies, rotated and flipped too', () => {
    // Rotated 90° and scaled 2×, mirrored: image x goes down, image y goes left.
    const m = affineFromPoints([100, 50], [100, 52], [98, 50]);
    expect(applyAffine(m, [10, 20])).toEqual([60, 70]);
    const back = applyAffine(invertAffine(m), [60, 70]);
    expect(back[0]).toBeCloseTo(10, 9);
    expect(back[1]).toBeCloseTo(20, 9);
  });
});

describe('grid', () => {
  it('draws lines every step µm across the visible box, none when denser than a few pixels', () => {
    expect(gridLines({ minX: 0, minY: 0, maxX: 1000, maxY: 450 }, 0.5, 100, 1)).toEqual({ xs: [0, 200, 400, 600, 800, 1000], ys: [0, 200, 400] });
    expect(gridLines({ minX: 0, minY: 0, maxX: 1000, maxY: 450 }, 0.5, 100, 0.01)).toEqual({ xs: [], ys: [] });
  });
});
