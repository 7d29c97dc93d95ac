import { api } from '../api/client';
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

interface Envelope<T> { data: T }

/** /kfb/path and /kfb/section/:id/:section: the slide a stored file path or a case's glass slide names. */
export async function locateSlide(by: { path: string } | { caseId: number; section: string }): Promise<number> {
  const res = 'path' in by
    ? await api.get<Envelope<{ id: number }>>('/data/kfb/locate/path', { params: { path: by.path } })
    : await api.get<Envelope<{ id: number }>>(`/data/kfb/locate/section/${by.caseId}/${encodeURIComponent(by.section)}`);
  return res.data.data.id;
}

export async function caseSlides(caseId: number): Promise<CaseSlide[]> {
  const res = await api.get<Envelope<{ data: CaseSlide[] }>>(`/slide_making/slide/lists/${caseId}`, { params: { page_size: 200 } });
  return res.data.data.data;
}

export async function listAnnotations(slideId: number): Promise<Annotation[]> {
  return (await api.get<Envelope<Annotation[]>>(`/slide/annotations/${slideId}`)).data.data;
}

export type ShapeBody = Pick<AnnotationShape, 'type' | 'points'> & Partial<Pick<AnnotationShape, 'name' | 'description' | 'color' | 'classification'>>;

export async function createAnnotation(slideId: number, shape: ShapeBody): Promise<Annotation> {
  return (await api.post<Envelope<Annotation>>(`/slide/annotations/${slideId}`, shape, { allowMultiple: true })).data.data;
}

export async function importAnnotations(slideId: number, shapes: ShapeBody[]): Promise<Annotation[]> {
  return (await api.post<Envelope<Annotation[]>>(`/slide/annotations/${slideId}/import`, { annotations: shapes })).data.data;
}

export type AnnotationChange = Partial<Pick<Annotation, 'points' | 'name' | 'description' | 'color' | 'classification'>>;

export async function updateAnnotation(a: Pick<Annotation, 'id' | 'version'>, change: AnnotationChange): Promise<Annotation> {
  return (await api.patch<Envelope<Annotation>>(`/slide/annotations/item/${a.id}`, { version: a.version, ...change }, { allowMultiple: true })).data.data;
}

export async function deleteAnnotation(id: number): Promise<void> {
  await api.delete(`/slide/annotations/item/${id}`, { allowMultiple: true });
}

export const associatedUrl = (slideId: number, name: 'label' | 'macro' | 'thumbnail') => `/api/tiles/${slideId}/associated/${name}`;
