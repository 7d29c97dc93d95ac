/**
 * The report's gross description as gross sampling recorded it (issue 31 item 10): each specimen's description is
 * kept on its blocks (SamplingPanel), so a new report starts from them rather than from nothing. One specimen: its
 * text alone; several: one line each, named by `line` (the UI language's "name: text").
 */
export function grossFromSampling(
  specimens: readonly { id: number; name: string }[],
  blocks: readonly { specimen_id: number | null; description?: string | null }[],
  line: (name: string, text: string) => string,
): string {
  const textOf = (of: (b: (typeof blocks)[number]) => boolean) =>
    [...new Set(blocks.filter(of).map((b) => b.description?.trim() ?? '').filter(Boolean))].join(' ');
  const described = specimens.map((s) => ({ name: s.name, text: textOf((b) => b.specimen_id === s.id) })).filter((s) => s.text);
  // Blocks of no specimen (taken outside the registered specimens) keep their own text, unnamed.
  const loose = textOf((b) => b.specimen_id === null || !specimens.some((s) => s.id === b.specimen_id));
  const lines = described.length === 1 && !loose ? [described[0].text] : described.map((s) => line(s.name, s.text));
  return [...lines, ...(loose ? [loose] : [])].join('\n');
}
