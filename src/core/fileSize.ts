const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * Spec §9: file size display in B, KB, MB, GB, TB (1024 steps), one decimal unless integer.
 * Empty or invalid input gives an empty string (the cell shows nothing rather than "NaN B").
 */
export function formatFileSize(bytes: unknown): string {
  const n = typeof bytes === 'string' && bytes.trim() !== '' ? Number(bytes) : bytes;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return '';
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = Math.round(value * 10) / 10;
  // 1023.96 KB rounds to 1024.0: say 1 MB instead.
  if (rounded >= 1024 && unit < UNITS.length - 1) return `1 ${UNITS[unit + 1]}`;
  return `${Number.isInteger(rounded) ? rounded : rounded.toFixed(1)} ${UNITS[unit]}`;
}
