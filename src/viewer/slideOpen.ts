import { api, unwrap } from '../api/client';

/**
 * Opening a slide: its information (which logs the view) and its Deep Zoom descriptor. Small and apart from the
 * rest of the viewer's API because the shell asks for both at boot on a viewer address (src/shell/viewerEarly.ts).
 */

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

/** Opening logs the view on the server (section log); call it once per slide shown. */
export async function openSlide(id: number, silent = false): Promise<SlideInfo> {
  return unwrap<SlideInfo>(api.post(`/data/kfb/open/${id}`, undefined, { allowMultiple: true, silent }));
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
