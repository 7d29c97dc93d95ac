/**
 * What an Aperio-style ImageDescription says about the scan. Aperio writes
 * `Aperio Image Library v11.2.1\r\n46000x32914 [...] JPEG/RGB Q=30|AppMag = 20|MPP = 0.4990|...`;
 * our demo generator writes the same shape so every reader agrees on the scale.
 */
export interface ScanDescription {
  vendor: 'aperio' | null;
  mpp: number | null;
  appMag: number | null;
  /** `key = value` pairs after the first `|`, as written. */
  properties: Record<string, string>;
}

export function parseImageDescription(text: string | undefined): ScanDescription {
  const out: ScanDescription = { vendor: null, mpp: null, appMag: null, properties: {} };
  if (!text) return out;
  if (/^Aperio/.test(text)) out.vendor = 'aperio';
  for (const part of text.split('|').slice(1)) {
    const m = part.match(/^\s*([^=]+?)\s*=\s*(.*?)\s*$/);
    if (m) out.properties[m[1]] = m[2];
  }
  out.mpp = positive(out.properties.MPP);
  out.appMag = positive(out.properties.AppMag);
  return out;
}

function positive(v: string | undefined): number | null {
  if (v === undefined) return null;
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : null;
}
