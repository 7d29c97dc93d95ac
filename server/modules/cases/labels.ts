import type { Db } from '../../db/connect.js';
import { blocksOf, sectionsOfBlocks, type CaseRow } from './lifecycle-queries.js';

export type LabelKind = 'cassette' | 'slide';
export type Symbology = 'code128' | 'datamatrix';

/**
 * Cassette labels (one per wax block) and slide labels (one per glass slide) of a case, each with its barcode
 * as SVG (bwip-js: Code128 for 1-D scanners, DataMatrix for the small square on a slide's frosted end). A
 * label carries what a scanner reads back into any search box: the case's number, block and section.
 */
export async function labelsOf(db: Db, c: CaseRow, kind: LabelKind, symbology: Symbology) {
  const items = kind === 'cassette'
    ? (await blocksOf(db, c.id)).map((b) => ({ id: b.id, code: `${c.pathology_number}-${b.block_number}`, lines: [c.pathology_number, `#${b.block_number}`] }))
    : (await sectionsOfBlocks(db, c.id)).map((s) => ({
      id: s.id, code: s.label ?? `${c.pathology_number}-${s.block_number}-${s.section_number}`, lines: [c.pathology_number, `${s.block_number}-${s.section_number}`, s.stain],
    }));
  // The Node build explicitly: the package's root export picks a build by bundler condition, which tsc (Bundler
  // resolution) does not set. Loaded by the first labels asked for, not at every process's start.
  const { default: bwipjs } = await import('bwip-js/node');
  return items.map((item) => ({
    ...item,
    patient_name: c.patient_name,
    // Square symbols for DataMatrix; Code128 bars 8 mm high with the text under them.
    svg: bwipjs.toSVG(symbology === 'code128' ? { bcid: 'code128', text: item.code, height: 8, includetext: true, textxalign: 'center' } : { bcid: 'datamatrix', text: item.code }),
  }));
}
