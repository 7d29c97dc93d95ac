/**
 * GET parameters with arrays and objects serialised with indices (spec §7), the way qs's
 * `arrayFormat: 'indices'` does: `ids[0]=1&ids[1]=2&range[from]=a`. Null and undefined are left out.
 */
export function serializeParams(params: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) return value.forEach((v, i) => add(`${key}[${i}]`, v));
    if (value instanceof Date) return parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(value.toISOString())}`);
    if (typeof value === 'object') return Object.entries(value as Record<string, unknown>).forEach(([k, v]) => add(`${key}[${k}]`, v));
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  };
  Object.entries(params).forEach(([k, v]) => add(k, v));
  return parts.join('&');
}
