import { api } from '../api/client';
import type { AnnotationType, Point } from '../core/annotationGeometry';
import type { AnnotationShape } from '../core/annotationGeoJson';

/** What POST /api/data/kfb/open/{id} answers (server/modules/slides/viewer-open.ts). */
export interface SlideInfo {
  id: number;
  name: string;
  case_id: number | null;
  width: number | null;
  height: number | null;
  levels: number | null;
  mpp: number | null;
  objective_power: number | null;
  scan_at: string | null;
  vendor: string | null;
  status: string;
  has_label: number;
  has_macro: number;
  format_note: string | null;
  pathology_number: string | null;
  patient_name: string | null;
  stain: string | null;
  block_number: string | null;
  section_number: number | null;
}

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

/** Opening logs the view on the server (section log); call it once per slide shown. */
export async function openSlide(id: number): Promise<SlideInfo> {
  return (await api.post<Envelope<SlideInfo>>(`/data/kfb/open/${id}`, undefined, { allowMultiple: true })).data.data;
}

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

/** Tile and image addresses: the HttpOnly image cookie authenticates them, never a token in the URL. */
export const dziUrl = (slideId: number) => `/api/tiles/${slideId}.dzi`;

/** A Deep Zoom descriptor in the inline form OpenSeadragon takes instead of a .dzi address. */
export interface DziDescriptor {
  Image: { xmlns: string; Url: string; Format: string; Overlap: string; TileSize: string; Size: { Width: string; Height: string } };
}

/**
 * The slide's descriptor, fetched beside its information (not after it, by OpenSeadragon): the viewer then
 * asks for tiles as soon as it exists. Null when it cannot be read; the viewer then loads the .dzi itself.
 */
export async function fetchDescriptor(slideId: number): Promise<DziDescriptor | null> {
  const res = await fetch(dziUrl(slideId), { credentials: 'same-origin' });
  if (!res.ok) return null;
  const image = new DOMParser().parseFromString(await res.text(), 'application/xml').querySelector('Image');
  const size = image?.querySelector('Size');
  if (!image || !size) return null;
  const attr = (el: Element, name: string) => el.getAttribute(name) ?? '';
  return {
    Image: {
      xmlns: attr(image, 'xmlns'), Url: `/api/tiles/${slideId}_files/`, Format: attr(image, 'Format'), Overlap: attr(image, 'Overlap'),
      TileSize: attr(image, 'TileSize'), Size: { Width: attr(size, 'Width'), Height: attr(size, 'Height') },
    },
  };
}
export const associatedUrl = (slideId: number, name: 'label' | 'macro' | 'thumbnail') => `/api/tiles/${slideId}/associated/${name}`;
