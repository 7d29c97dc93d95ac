/** What this needs of an enum's option: its value (the caller's type keeps the rest, its words and colour). */
export interface EnumChoice { value: unknown; color?: string }

/**
 * The options a value names: its own option, or, for a list kept as comma-separated text whose every part is an
 * option (a slide's QC reasons `blurry,wrong_area`), each part's option. Null for anything else (an unknown value,
 * free text with commas), which is then shown as it is.
 */
export function enumOptionsOf<O extends EnumChoice>(options: readonly O[] | undefined, value: unknown): O[] | null {
  if (!options) return null;
  const find = (v: string) => options.find((o) => String(o.value) === v);
  const whole = find(String(value));
  if (whole) return [whole];
  if (typeof value !== 'string' || !value.includes(',')) return null;
  const parts = value.split(',').map((p) => find(p.trim()));
  return parts.every((p): p is O => !!p) ? parts : null;
}
