import type { FilterCondition } from './filters.js';

/**
 * What a scanned label says (issue 10: "a barcode scanner (keyboard wedge) in any search box finds the case or
 * block"). The labels (server/modules/cases/labels.ts) carry `<pathology number>-<block>` on a cassette and
 * `<pathology number>-<block>-<section>` on a slide; a number itself may hold dashes (P2026-00001), so a code is
 * read every way it can be: as a number, as a cassette, as a slide. Only exact numbers match later, so a
 * reading naming no case finds nothing and does no harm.
 */
export interface LabelReading {
  /** The pathology number the code names. */
  number: string;
  /** The wax block (cassette and slide labels). */
  block?: string;
  /** The glass slide's serial within its block (slide labels). */
  section?: number;
}

/** The characters a pathology number may hold (schemas/resources/cases.json) and the block column's width. */
const CODE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const MAX_CODE = 64 + 1 + 32 + 1 + 9;
const MAX_BLOCK = 32;

/** The readings of `text` (trimmed), the whole text as a number first; none when it cannot be a label's code. */
export function labelReadings(text: string): LabelReading[] {
  const code = text.trim();
  if (!code || code.length > MAX_CODE || !CODE.test(code)) return [];
  const readings: LabelReading[] = [{ number: code }];
  const parts = code.split('-');
  const ok = (s: string | undefined) => !!s && s.length <= MAX_BLOCK;
  // Cassette: the last part is the block.
  if (parts.length >= 2 && ok(parts.at(-1)) && parts.slice(0, -1).join('-')) {
    readings.push({ number: parts.slice(0, -1).join('-'), block: parts.at(-1) });
  }
  // Slide: the last part the section's serial, the one before it the block.
  if (parts.length >= 3 && /^\d{1,9}$/.test(parts.at(-1)!) && ok(parts.at(-2)) && parts.slice(0, -2).join('-')) {
    readings.push({ number: parts.slice(0, -2).join('-'), block: parts.at(-2), section: Number(parts.at(-1)) });
  }
  return readings;
}

/**
 * A search box's text as a scanned label: one condition "the pathology number is one this code may name", to be
 * OR-ed with the keyword's own conditions (a hand-typed fragment still finds by "contains"). Null when the text has
 * no dash (then it is a number or a fragment, which the keyword search finds already) or cannot be a code.
 */
export function labelSearchCondition(text: string, column = 'pathology_number'): FilterCondition | null {
  const readings = labelReadings(text);
  if (readings.length < 2) return null;
  return { column, operator: 'in', value: [...new Set(readings.map((r) => r.number))], condition: 'or' };
}
