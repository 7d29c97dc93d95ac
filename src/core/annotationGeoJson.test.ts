import { describe, expect, it } from 'vitest';
import { fromGeoJson, MAX_IMPORT_FEATURES, rgbToHex, toGeoJson, type AnnotationShape } from './annotationGeoJson';

const shape = (over: Partial<AnnotationShape>): AnnotationShape => ({ type: 'polygon', points: [[0, 0], [100, 0], [50, 80]], name: '', description: '', color: '#00ff00', classification: '', ...over });

describe('GeoJSON in QuPath\'s layout', () => {
  it('exports a FeatureCollection of annotations in image pixels with colour and classification', () => {
    const out = toGeoJson([shape({ name: 'Tumour edge', classification: 'Tumor', description: 'check' })]);
    expect(out.type).toBe('FeatureCollection');
    expect(out.features[0]).toEqual({
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [[[0, 0], [100, 0], [50, 80], [0, 0]]] },
      properties: { objectType: 'annotation', name: 'Tumour edge', color: [0, 255, 0], classification: { name: 'Tumor', color: [0, 255, 0] }, metadata: { dsms_type: 'polygon', description: 'check' } },
    });
  });

  it('rectangles become closed polygons, rulers lines, points points', () => {
    const out = toGeoJson([shape({ type: 'rectangle', points: [[10, 10], [30, 20]] }), shape({ type: 'ruler', points: [[0, 0], [5, 5]] }), shape({ type: 'point', points: [[7, 8]] })]);
    expect(out.features.map((f) => f.geometry)).toEqual([
      { type: 'Polygon', coordinates: [[[10, 10], [30, 10], [30, 20], [10, 20], [10, 10]]] },
      { type: 'LineString', coordinates: [[0, 0], [5, 5]] },
      { type: 'Point', coordinates: [7, 8] },
    ]);
  });

  it('round-trips every type, ellipses and rectangles back to their boxes', () => {
    const shapes = [
      shape({ type: 'rectangle', points: [[10, 10], [30, 20]] }),
      shape({ type: 'ellipse', points: [[100, 50], [300, 150]], name: 'E' }),
      shape({ type: 'polygon' }),
      shape({ type: 'freehand', points: [[0, 0], [3, 1], [5, 9], [1, 4]] }),
      shape({ type: 'polyline', points: [[0, 0], [3, 1], [5, 9]] }),
      shape({ type: 'arrow', points: [[0, 0], [30, 10]] }),
      shape({ type: 'ruler', points: [[0, 0], [30, 10]] }),
      shape({ type: 'point', points: [[4, 4]] }),
      shape({ type: 'text', points: [[4, 4]], name: 'HE' }),
    ];
    const back = fromGeoJson(JSON.stringify(toGeoJson(shapes)));
    expect('shapes' in back && back.skipped).toBe(0);
    if (!('shapes' in back)) throw new Error('problem');
    const ellipse = back.shapes[1]!;
    expect(ellipse.type).toBe('ellipse');
    expect(ellipse.points[0]![0]).toBeCloseTo(100, 9);
    expect(ellipse.points[1]![1]).toBeCloseTo(150, 9);
    expect(back.shapes.map((s) => s.type)).toEqual(shapes.map((s) => s.type));
    expect(back.shapes[0]!.points).toEqual([[10, 10], [30, 20]]);
    expect(back.shapes[2]).toEqual(shapes[2]);
  });

  it('reads what QuPath writes: no metadata, detections skipped, MultiPolygon split, holes dropped, packed colours', () => {
    const qupath = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', id: 'a', geometry: { type: 'Polygon', coordinates: [[[0, 0], [10, 0], [10, 10], [0, 0]], [[2, 2], [3, 2], [3, 3], [2, 2]]] }, properties: { objectType: 'annotation', classification: { name: 'Stroma', color: [150, 200, 150] } } },
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] }, properties: { objectType: 'detection' } },
        { type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [[[[0, 0], [5, 0], [5, 5], [0, 0]]], [[[9, 9], [12, 9], [12, 12], [9, 9]]]] }, properties: { objectType: 'annotation', color: -16776961 } },
        { type: 'Feature', geometry: { type: 'GeometryCollection', geometries: [] }, properties: {} },
      ],
    };
    const got = fromGeoJson(JSON.stringify(qupath));
    if (!('shapes' in got)) throw new Error('problem');
    expect(got.skipped).toBe(2);
    expect(got.shapes).toHaveLength(3);
    expect(got.shapes[0]).toEqual({ type: 'polygon', points: [[0, 0], [10, 0], [10, 10]], name: '', description: '', color: '#96c896', classification: 'Stroma' });
    expect(got.shapes[1]!.color).toBe('#0000ff');
  });

  it('refuses what is not GeoJSON, and more features than one import takes', () => {
    expect(fromGeoJson('nope')).toEqual({ problem: 'not_geojson' });
    expect(fromGeoJson('{"type":"Polygon"}')).toEqual({ problem: 'not_geojson' });
    const many = { type: 'FeatureCollection', features: Array.from({ length: MAX_IMPORT_FEATURES + 1 }, () => ({})) };
    expect(fromGeoJson(JSON.stringify(many))).toEqual({ problem: 'too_many' });
  });

  it('reads colours as [r,g,b] or packed integers', () => {
    expect(rgbToHex([255, 128, 0])).toBe('#ff8000');
    expect(rgbToHex(0xff8000)).toBe('#ff8000');
    expect(rgbToHex('red')).toBeNull();
  });
});
