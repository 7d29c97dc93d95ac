import { hasPermission } from '../../http/access.js';
import type { SessionUser } from '../../http/types.js';

/** What every image of a slide needs (spec §6): tiles, Deep Zoom, IIIF, label, macro and thumbnail alike. */
export const IMAGE_PERMISSION = 'slide_view';

/** Whether this session may see slide images at all (each slide's hospital is checked beside it). No allocation: the fast lane asks it per tile. */
export const mayViewImages = (session: SessionUser): boolean => hasPermission(session, IMAGE_PERMISSION);

/** OpenAPI: the bearer header or the image cookie (`imageCookie` among buildApp's security schemes). */
export const IMAGE_SECURITY: { [scheme: string]: string[] }[] = [{ bearer: [] }, { imageCookie: [] }];
