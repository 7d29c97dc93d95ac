import { api, unwrap } from '../api/client';
import type { AnnotationType, Point } from '../core/annotationGeometry';
import type { AnnotationShape } from '../core/annotationGeoJson';

export { dziUrl, fetchDescriptor, openSlide, type DziDescriptor, type SlideInfo } from './slideOpen';

export interface Annotation {
  id: number;
  slide_id: number;
  user_id: number;
  username: string | null;
  type: AnnotationType;
  points: Point[];
  name: string;
  description: string;
  color: string;
  classification: string;
  length_um: number | null;
  area_um2: number | null;
  perimeter_um: number | null;
  version: number;
  created_at: string;
}

export interface CaseSlide { id: number; name: string; thumb_url?: string | null }

/** /kfb/path and /kfb/section/:id/:section: the slide a stored file path or a case's glass slide names. */
export async function locateSlide(by: { path: string } | { caseId: number; section: string }): Promise<number> {
  const slide = await unwrap<{ id: number }>('path' in by
    ? api.get('/data/kfb/locate/path', { params: { path: by.path } })
    : api.get(`/data/kfb/locate/section/${by.caseId}/${encodeURIComponent(by.section)}`));
  return slide.id;
}

export async function caseSlides(caseId: number): Promise<CaseSlide[]> {
  return (await unwrap<{ data: CaseSlide[] }>(api.get(`/slide_making/slide/lists/${caseId}`, { params: { page_size: 200 } }))).data;
}

export async function listAnnotations(slideId: number): Promise<Annotation[]> {
  return unwrap<Annotation[]>(api.get(`/slide/annotations/${slideId}`));
}

export type ShapeBody = Pick<AnnotationShape, 'type' | 'points'> & Partial<Pick<AnnotationShape, 'name' | 'description' | 'color' | 'classification'>>;

export async function createAnnotation(slideId: number, shape: ShapeBody): Promise<Annotation> {
  return unwrap<Annotation>(api.post(`/slide/annotations/${slideId}`, shape, { allowMultiple: true }));
}

export async function importAnnotations(slideId: number, shapes: ShapeBody[]): Promise<Annotation[]> {
  return unwrap<Annotation[]>(api.post(`/slide/annotations/${slideId}/import`, { annotations: shapes }));
}

export type AnnotationChange = Partial<Pick<Annotation, 'points' | 'name' | 'description' | 'color' | 'classification'>>;

export async function updateAnnotation(a: Pick<Annotation, 'id' | 'version'>, change: AnnotationChange): Promise<Annotation> {
  return unwrap<Annotation>(api.patch(`/slide/annotations/item/${a.id}`, { version: a.version, ...change }, { allowMultiple: true }));
}

export async function deleteAnnotation(id: number): Promise<void> {
  await unwrap(api.delete(`/slide/annotations/item/${id}`, { allowMultiple: true }));
}

export const associatedUrl = (slideId: number, name: 'label' | 'macro' | 'thumbnail') => `/api/tiles/${slideId}/associated/${name}`;
