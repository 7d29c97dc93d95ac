/**
 * What on a slide label's text may be a pathology number (outer/ocr, issue 17): the label is read by OCR, and the
 * numbers it finds are looked up among the hospital's cases to suggest one when binding a slide. A number is
 * letters then digits, in one piece or split by one of the numbering rule's connectors (spec §9: short dash,
 * underline, none, space), with at least four digits; OCR's usual confusions of letters inside the digits are undone.
 */

/** Letters OCR reads in place of digits (O/0, I/1, …), undone only after the first digit. */
const DIGIT_LOOKALIKES: Record<string, string> = { O: '0', Q: '0', D: '0', I: '1', L: '1', Z: '2', S: '5', B: '8', G: '6' };
const CANDIDATE = /[A-Z]{0,6}[0-9OQDILZSBG]{2,12}(?:[-_ .][0-9OQDILZSBG]{1,12})?/g;
const MAX_CANDIDATES = 20;

function fixDigits(token: string): string {
  const firstDigit = token.search(/[0-9]/);
  if (firstDigit < 0) return token;
  return token.slice(0, firstDigit) + [...token.slice(firstDigit)].map((c) => DIGIT_LOOKALIKES[c] ?? c).join('');
}

/** Possible pathology numbers in OCR text, most likely first (longest), each at most once. */
export function pathologyNumberCandidates(text: string): string[] {
  const out: string[] = [];
  const upper = text.toUpperCase().replace(/[—–－‐]/g, '-').replace(/＿/g, '_');
  for (const line of upper.split(/\r?\n/)) {
    for (const match of line.matchAll(CANDIDATE)) {
      const token = fixDigits(match[0].replace(/\.$/, '')).replace(/\./g, '');
      if ((token.match(/[0-9]/g) ?? []).length < 4) continue;
      if (!out.includes(token)) out.push(token);
    }
  }
  return out.sort((a, b) => b.length - a.length).slice(0, MAX_CANDIDATES);
}

/** A number compared without its connector and case: "p2026 00042" finds "P2026-00042". */
export const numberKey = (value: string): string => value.toUpperCase().replace(/[-_ ]/g, '');
