/** Up to three row actions show as buttons; with more, two show and the rest go into a "more" menu. */
export const INLINE_ACTIONS = 3;
export const inlineCount = (n: number) => (n > INLINE_ACTIONS ? INLINE_ACTIONS - 1 : n);

/** Fluent's small button: 64 px at least, 8 px padding each side, 12 px text. */
const MIN_BUTTON = 64;
const BUTTON_PADDING = 16;
/** Average advance at 12 px: Latin letters about 7 px, CJK ideographs a full em. */
const LATIN = 7;
const WIDE = 12;
const GAP = 2;
const CELL_PADDING = 16;
const MENU_BUTTON = 32;

const isWide = (ch: string) => /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/.test(ch);

/** A small button's width for its text (an estimate: the table's column widths are fixed, not measured). */
export function buttonWidth(text: string): number {
  let glyphs = 0;
  for (const ch of text) glyphs += isWide(ch) ? WIDE : LATIN;
  return Math.max(MIN_BUTTON, Math.ceil(glyphs) + BUTTON_PADDING);
}

/**
 * The actions column's width for one row's action labels: its inline buttons side by side, plus the
 * menu button when some actions are folded away. The column takes the widest row's.
 */
export function actionsWidth(labels: readonly string[]): number {
  if (!labels.length) return 0;
  const inline = labels.slice(0, inlineCount(labels.length));
  const buttons = inline.reduce((w, l) => w + buttonWidth(l), 0) + GAP * (inline.length - 1);
  return CELL_PADDING + buttons + (labels.length > inline.length ? GAP + MENU_BUTTON : 0);
}
