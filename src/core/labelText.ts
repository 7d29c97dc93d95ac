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

/** A glass slide's code as its label prints it under the barcode: `<pathology number>-<block>-<section>` or a printed label. */
const GLASS_CODE = /[A-Z0-9][A-Z0-9_-]{3,63}/g;
/** A block and a slide of it as a label prints them on a line of their own: `A2-3`, `1-1`. */
const BLOCK_SECTION = /(?:^|\s)([A-Z0-9]{1,8})-([0-9]{1,4})(?=\s|$)/gm;

/**
 * What in OCR text may be a glass slide's code (the text printed under a slide label's barcode), each at most once: the
 * words of the text with at least two connectors or four digits, upper case, dashes of any width made short, each as
 * read and with OCR's letters for digits undone after the first digit. Compared exactly with the hospital's glass
 * slides (outer/ocr.ts), so a reading names a glass slide only when it is that slide's whole code.
 */
export function glassCodeCandidates(text: string): string[] {
  const upper = text.toUpperCase().replace(/[—–－‐]/g, '-').replace(/＿/g, '_');
  const out: string[] = [];
  for (const match of upper.matchAll(GLASS_CODE)) {
    const raw = match[0].replace(/[-_]+$/, '');
    if ((raw.match(/[-_]/g) ?? []).length < 2 && (raw.match(/[0-9OQDILZSBG]/g) ?? []).length < 4) continue;
    // As read, and with the digits undone: a block may well be called B or S, which the lookup then still finds.
    for (const token of [raw, fixDigits(raw)]) if (!out.includes(token)) out.push(token);
  }
  // DSMS's slide labels also print the code's parts on lines of their own (number, block-section, stain: cases/labels.ts),
  // which OCR reads more surely than the small text among the bars: each number read, joined with each block-section.
  const sections = [...new Set([...upper.matchAll(BLOCK_SECTION)].map((m) => `${m[1]}-${m[2]}`))];
  for (const number of pathologyNumberCandidates(text)) {
    // A number is not its own block-section (LBL-0042 reads as both).
    for (const section of sections.filter((x) => !number.endsWith(x))) {
      const code = `${number}-${section}`;
      if (!out.includes(code)) out.push(code);
    }
  }
  return out.slice(0, MAX_CANDIDATES);
}
