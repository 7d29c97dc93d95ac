/**
 * A share (0–1: the out-of-focus tissue of a slide, spec §4 QC) as a person reads it: a percentage with at most one
 * decimal, in the page's language (0.8888888888888888 → "88.9%"). Not a number: '' (nothing to show).
 */
export function shareText(value: unknown, lang: string): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return '';
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(n);
}
