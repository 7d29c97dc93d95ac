import type { ResourceHooks } from '../../resources/hooks/types.js';
import { PROCESSING } from '../slides/resolver.js';
import { thumbUrl } from '../slides/hooks.js';
import { qcSlideFacts } from './queries.js';

/**
 * Slide QC rows carry what tells a grader which slide a row is (issue 31 item 8): the slide's name, its case's
 * pathology number (linked to the case) and its thumbnail; one query per page.
 */
export const slideQcHooks: ResourceHooks = {
  consumes: ['slide_name', 'pathology_number', 'case_id', 'thumb_url'],

  async afterRead(db, rows) {
    const slides = await qcSlideFacts(db, [...new Set(rows.map((r) => Number(r.slide_id)))]);
    return rows.map((r) => {
      const slide = slides.get(Number(r.slide_id));
      return {
        ...r,
        slide_name: slide?.name ?? null,
        pathology_number: slide?.pathology_number ?? null,
        case_id: slide?.case_id ?? null,
        // A slide being converted again has no thumbnail to serve yet.
        thumb_url: slide && !PROCESSING.has(slide.status) ? thumbUrl(Number(r.slide_id)) : null,
      };
    });
  },
};
