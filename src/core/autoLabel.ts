/**
 * Automatic labelling of a slide (spec §7 auto_label, issue 16): a label applies when its name, in either
 * language, occurs in what is written about the slide (its case's specimen and clinical diagnosis, the slide's
 * name). Case and width of Latin letters are ignored. A one-letter Latin name never matches (it would match nearly
 * everything); one Chinese character is a word (胃, stomach) and does.
 */
export interface LabelRule { id: number; name: string; en_name: string | null }

const fold = (s: string) => s.normalize('NFKC').toLowerCase();
const wordy = (n: string) => n.length >= 2 || /[\u4e00-\u9fff]/.test(n);

export function matchLabels(labels: readonly LabelRule[], texts: readonly (string | null | undefined)[]): number[] {
  const hay = fold(texts.filter(Boolean).join('\n'));
  if (!hay) return [];
  return labels
    .filter((l) => [l.name, l.en_name].some((n) => !!n && wordy(n.trim()) && hay.includes(fold(n.trim()))))
    .map((l) => l.id);
}
