import { describe, expect, it } from 'vitest';
import { ellipsePerimeter, formatArea, formatLength, largeEnough, measure, MIN_ANNOTATION_SIZE_PX, outlineOf, pointCountFits, polygonArea } from './annotationGeometry';

describe('annotation measurement (µm from the slide\'s microns per pixel)', () => {
  it('a ruler is its length times mpp', () => {
    // A 3-4-5 triangle's hypotenuse: 500 px at 0.25 µm/px is 125 µm.
    expect(measure('ruler', [[100, 100], [400, 500]], 0.25)).toEqual({ length: 125, calibrated: true });
    expect(measure('polyline', [[0, 0], [10, 0], [10, 10]], 2)).toEqual({ length: 40, calibrated: true });
  });

  it('a rectangle drawn from any corner has area w·h and perimeter 2(w+h)', () => {
    expect(measure('rectangle', [[300, 200], [100, 100]], 0.5)).toEqual({ area: 200 * 100 * 0.25, perimeter: 2 * (200 + 100) * 0.5, calibrated: true });
  });

  it('an ellipse has area πab and Ramanujan\'s perimeter (a circle: 2πr exactly)', () => {
    const m = measure('ellipse', [[0, 0], [200, 200]], 1);
    expect(m.area).toBeCloseTo(Math.PI * 100 * 100, 6);
    expect(m.perimeter).toBeCloseTo(2 * Math.PI * 100, 6);
    // a = 10, b = 5: the series value is 48.4422; Ramanujan II agrees to 1e-4.
    expect(ellipsePerimeter(10, 5)).toBeCloseTo(48.4422, 3);
  });

  it('a polygon\'s area does not depend on its winding; its perimeter closes the ring', () => {
    const square: [number, number][] = [[0, 0], [10, 0], [10, 10], [0, 10]];
    expect(polygonArea(square)).toBe(100);
    expect(polygonArea([...square].reverse())).toBe(100);
    expect(measure('freehand', square, 1)).toEqual({ area: 100, perimeter: 40, calibrated: true });
  });

  it('without mpp the numbers are pixels and say so', () => {
    expect(measure('ruler', [[0, 0], [30, 40]], null)).toEqual({ length: 50, calibrated: false });
    expect(formatLength(50, false)).toBe('50.0 px');
  });

  it('points and texts have nothing to measure', () => {
    expect(measure('point', [[1, 1]], 0.25)).toEqual({ calibrated: true });
  });

  it('formats lengths and areas in µm or mm', () => {
    expect(formatLength(125)).toBe('125 µm');
    expect(formatLength(2.345)).toBe('2.35 µm');
    expect(formatLength(1500)).toBe('1.50 mm');
    expect(formatArea(5000)).toBe('5000 µm²');
    expect(formatArea(2.5e6)).toBe('2.50 mm²');
  });
});

describe('minimum annotation size (spec §5) and point counts', () => {
  const m = MIN_ANNOTATION_SIZE_PX;
  it('closed shapes need a box at least the minimum wide and high', () => {
    expect(largeEnough('rectangle', [[0, 0], [m, m]])).toBe(true);
    expect(largeEnough('rectangle', [[0, 0], [m - 1, 500]])).toBe(false);
    expect(largeEnough('polygon', [[0, 0], [500, 0], [250, m - 0.5]])).toBe(false);
  });
  it('lines need the minimum length; points and texts have no size', () => {
    expect(largeEnough('ruler', [[0, 0], [m, 0]])).toBe(true);
    expect(largeEnough('arrow', [[0, 0], [m - 1, 0]])).toBe(false);
    expect(largeEnough('point', [[5, 5]])).toBe(true);
  });
  it('each type takes its number of points', () => {
    expect(pointCountFits('rectangle', 2)).toBe(true);
    expect(pointCountFits('rectangle', 3)).toBe(false);
    expect(pointCountFits('polygon', 2)).toBe(false);
    expect(pointCountFits('polyline', 2)).toBe(true);
    expect(pointCountFits('text', 1)).toBe(true);
    expect(pointCountFits('freehand', 10_001)).toBe(false);
  });
  it('rectangles and ellipses are drawn as outlines', () => {
    expect(outlineOf('rectangle', [[10, 20], [0, 0]])).toEqual([[0, 0], [10, 0], [10, 20], [0, 20]]);
    expect(outlineOf('ellipse', [[0, 0], [20, 10]])[0]).toEqual([20, 5]);
  });
});
