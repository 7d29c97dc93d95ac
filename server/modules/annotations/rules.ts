import { largeEnough, MAX_ANNOTATION_VERTICES, measure, MIN_ANNOTATION_SIZE_PX, pointCountFits, type AnnotationType, type Point } from '../../../src/core/annotationGeometry.js';
import { AppError } from '../../http/errors.js';

export interface ShapeInput { type: AnnotationType; points: Point[] }
interface SlideSize { width: number | null; height: number | null; mpp: number | null }

/** Coordinates may reach a little past the edge (a box drawn to the border); beyond that a shape is not on the slide. */
const EDGE_SLACK = 0.05;

/**
 * Checks a shape against the slide it is drawn on and answers what to store of its measurement; throws a
 * translated 422 for a wrong vertex count, too many vertices, a shape off the slide, or one under spec §5's size.
 */
export function checkedMeasurement(shape: ShapeInput, slide: SlideSize): { length_um: number | null; area_um2: number | null; perimeter_um: number | null } {
  const { type, points } = shape;
  if (points.length > MAX_ANNOTATION_VERTICES) throw new AppError(422, 'annotation.too_many_vertices', { count: points.length, max: MAX_ANNOTATION_VERTICES });
  if (!pointCountFits(type, points.length)) throw new AppError(422, 'annotation.bad_points', { type, count: points.length });
  if (slide.width && slide.height) {
    const [w, h] = [slide.width, slide.height];
    const off = points.some(([x, y]) => x < -w * EDGE_SLACK || y < -h * EDGE_SLACK || x > w * (1 + EDGE_SLACK) || y > h * (1 + EDGE_SLACK));
    if (off) throw new AppError(422, 'annotation.outside_slide');
  }
  if (!largeEnough(type, points)) throw new AppError(422, 'annotation.too_small', { min: MIN_ANNOTATION_SIZE_PX });
  const m = measure(type, points, slide.mpp);
  // Stored only when calibrated: a pixel count is not a length in µm.
  const um = (v: number | undefined) => (m.calibrated && v !== undefined ? v : null);
  return { length_um: um(m.length), area_um2: um(m.area), perimeter_um: um(m.perimeter) };
}
