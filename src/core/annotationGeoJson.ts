import { ANNOTATION_TYPES, boundsOf, outlineOf, pointCountFits, type AnnotationType, type Point } from './annotationGeometry';

/**
 * GeoJSON export and import in QuPath's layout (File → Export objects as GeoJSON / drag a .geojson in): a
 * FeatureCollection of Features in level-0 image pixels (QuPath's own coordinates, y down), each with
 * `properties.objectType: "annotation"`, `name`, `color` [r, g, b] and `classification { name, color }`.
 * QuPath has no rectangles, ellipses, arrows or rulers in GeoJSON: they go out as the polygon or line QuPath
 * would make, and our own type rides in `properties.metadata` (a string map QuPath keeps), so a round trip
 * through QuPath brings them back as they were.
 */
export interface AnnotationShape {
  type: AnnotationType;
  points: Point[];
  name: string;
  description: string;
  /** `#rrggbb` */
  color: string;
  classification: string;
}

type Position = [number, number];
type Geometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'MultiPoint'; coordinates: Position[] }
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'MultiLineString'; coordinates: Position[][] }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] };

export interface Feature {
  type: 'Feature';
  id?: string;
  geometry: Geometry;
  properties: Record<string, unknown>;
}

export interface FeatureCollection { type: 'FeatureCollection'; features: Feature[] }

export const DEFAULT_COLOR = '#ff0000';
/** An import is one request; a QuPath project can hold more than anyone reviews on one slide. */
export const MAX_IMPORT_FEATURES = 2_000;

export function toGeoJson(shapes: readonly AnnotationShape[]): FeatureCollection {
  return { type: 'FeatureCollection', features: shapes.map(toFeature) };
}

function toFeature(shape: AnnotationShape): Feature {
  const rgb = hexToRgb(shape.color);
  const properties: Record<string, unknown> = { objectType: 'annotation', color: rgb, metadata: { dsms_type: shape.type, ...(shape.description ? { description: shape.description } : {}) } };
  if (shape.name) properties.name = shape.name;
  if (shape.classification) properties.classification = { name: shape.classification, color: rgb };
  return { type: 'Feature', geometry: geometryOf(shape), properties };
}

function geometryOf({ type, points }: AnnotationShape): Geometry {
  const pos = (p: Point): Position => [p[0], p[1]];
  if (type === 'point' || type === 'text') return { type: 'Point', coordinates: pos(points[0]!) };
  if (type === 'polyline' || type === 'arrow' || type === 'ruler') return { type: 'LineString', coordinates: points.map(pos) };
  const ring = outlineOf(type, points).map(pos);
  // GeoJSON rings are closed: the first position repeated at the end.
  return { type: 'Polygon', coordinates: [[...ring, ring[0]!]] };
}

export type ImportProblem = 'not_geojson' | 'too_many';

/**
 * Shapes from a GeoJSON text (QuPath's export, ours, or any FeatureCollection / Feature / Feature array in
 * image pixels). Detections and cells (`objectType` other than annotation) are skipped, as are geometries we
 * cannot draw; polygon holes are dropped (our shapes have none). Returns the shapes and how many were skipped.
 */
export function fromGeoJson(text: string): { shapes: AnnotationShape[]; skipped: number } | { problem: ImportProblem } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: 'not_geojson' };
  }
  const features = featureList(data);
  if (!features) return { problem: 'not_geojson' };
  if (features.length > MAX_IMPORT_FEATURES) return { problem: 'too_many' };
  const shapes: AnnotationShape[] = [];
  let skipped = 0;
  for (const f of features) {
    const got = shapesOf(f);
    if (got.length) shapes.push(...got);
    else skipped++;
  }
  return { shapes, skipped };
}

function featureList(data: unknown): unknown[] | null {
  if (Array.isArray(data)) return data;
  if (!isObject(data)) return null;
  if (data.type === 'FeatureCollection' && Array.isArray(data.features)) return data.features;
  if (data.type === 'Feature') return [data];
  return null;
}

function shapesOf(f: unknown): AnnotationShape[] {
  if (!isObject(f) || f.type !== 'Feature' || !isObject(f.geometry)) return [];
  const props = isObject(f.properties) ? f.properties : {};
  if (props.objectType !== undefined && props.objectType !== 'annotation') return [];
  const meta = isObject(props.metadata) ? props.metadata : {};
  const classification = isObject(props.classification) ? props.classification : undefined;
  const base = {
    name: typeof props.name === 'string' ? props.name : '',
    description: typeof meta.description === 'string' ? meta.description : '',
    color: rgbToHex(props.color) ?? rgbToHex(classification?.color) ?? DEFAULT_COLOR,
    classification: typeof classification?.name === 'string' ? classification.name : '',
  };
  const declared = ANNOTATION_TYPES.find((t) => t === meta.dsms_type);
  const { type, coordinates } = f.geometry as { type: unknown; coordinates: unknown };
  const make = (t: AnnotationType, pts: Point[] | null): AnnotationShape[] => (pts && pointCountFits(t, pts.length) ? [{ ...base, type: t, points: pts }] : []);

  if (type === 'Point') return make(declared === 'text' ? 'text' : 'point', positions([coordinates]));
  if (type === 'MultiPoint') return (positions(coordinates) ?? []).flatMap((p) => make('point', [p]));
  if (type === 'LineString') {
    const pts = positions(coordinates);
    const t = (declared === 'arrow' || declared === 'ruler') && pts?.length === 2 ? declared : 'polyline';
    return make(t, pts);
  }
  if (type === 'MultiLineString' && Array.isArray(coordinates)) return coordinates.flatMap((line) => make('polyline', positions(line)));
  if (type === 'Polygon' && Array.isArray(coordinates)) return polygonShape(declared, coordinates[0], make);
  if (type === 'MultiPolygon' && Array.isArray(coordinates)) {
    return coordinates.flatMap((poly) => (Array.isArray(poly) ? polygonShape(undefined, poly[0], make) : []));
  }
  return [];
}

function polygonShape(declared: AnnotationType | undefined, ring: unknown, make: (t: AnnotationType, pts: Point[] | null) => AnnotationShape[]): AnnotationShape[] {
  const pts = positions(ring);
  if (!pts) return [];
  const open = pts.length > 1 && samePoint(pts[0]!, pts[pts.length - 1]!) ? pts.slice(0, -1) : pts;
  if (declared === 'rectangle' || declared === 'ellipse') {
    const b = boundsOf(open);
    return make(declared, [[b.minX, b.minY], [b.maxX, b.maxY]]);
  }
  return make(declared === 'freehand' ? 'freehand' : 'polygon', open);
}

function positions(value: unknown): Point[] | null {
  if (!Array.isArray(value)) return null;
  const out: Point[] = [];
  for (const p of value) {
    if (!Array.isArray(p) || typeof p[0] !== 'number' || typeof p[1] !== 'number' || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) return null;
    out.push([p[0], p[1]]);
  }
  return out;
}

const samePoint = (a: Point, b: Point) => a[0] === b[0] && a[1] === b[1];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function hexToRgb(hex: string): [number, number, number] {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  const n = m ? parseInt(m[1]!, 16) : 0xff0000;
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** QuPath writes [r, g, b] (0.4+); older exports a packed signed integer colour. */
export function rgbToHex(value: unknown): string | null {
  let rgb: number[] | null = null;
  if (Array.isArray(value) && value.length >= 3 && value.slice(0, 3).every((c) => typeof c === 'number')) rgb = value.slice(0, 3) as number[];
  else if (typeof value === 'number' && Number.isInteger(value)) rgb = [(value >> 16) & 255, (value >> 8) & 255, value & 255];
  if (!rgb) return null;
  return `#${rgb.map((c) => Math.max(0, Math.min(255, Math.round(c))).toString(16).padStart(2, '0')).join('')}`;
}
