/**
 * What an Aperio-style ImageDescription says about the scan. Aperio writes
 * `Aperio Image Library v11.2.1\r\n46000x32914 [...] JPEG/RGB Q=30|AppMag = 20|MPP = 0.4990|...`;
 * our demo generator writes the same shape so every reader agrees on the scale.
 */
export interface ScanDescription {
  vendor: 'aperio' | null;
  mpp: number | null;
  appMag: number | null;
  /** `Date = 12/29/09|Time = 09:59:15` as ISO 8601 (`2009-12-29T09:59:15`), null when absent or unreadable. */
  scanAt: string | null;
  /** `key = value` pairs after the first `|`, as written. */
  properties: Record<string, string>;
}

export function parseImageDescription(text: string | undefined): ScanDescription {
  const out: ScanDescription = { vendor: null, mpp: null, appMag: null, scanAt: null, properties: {} };
  if (!text) return out;
  if (/^Aperio/.test(text)) out.vendor = 'aperio';
  for (const part of text.split('|').slice(1)) {
    const m = part.match(/^\s*([^=]+?)\s*=\s*(.*?)\s*$/);
    if (m) out.properties[m[1]] = m[2];
  }
  out.mpp = positive(out.properties.MPP);
  out.appMag = positive(out.properties.AppMag);
  out.scanAt = aperioScanTime(out.properties);
  return out;
}

/** Aperio writes US order and often a two-digit year; the time defaults to midnight. */
function aperioScanTime(properties: Record<string, string>): string | null {
  const d = properties.Date?.match(/^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/);
  if (!d) return null;
  const year = d[3].length === 2 ? `20${d[3]}` : d[3];
  const time = properties.Time?.match(/^(\d{2}):(\d{2}):(\d{2})/)?.[0] ?? '00:00:00';
  return `${year}-${d[1].padStart(2, '0')}-${d[2].padStart(2, '0')}T${time}`;
}

function positive(v: string | undefined): number | null {
  if (v === undefined) return null;
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : null;
}
