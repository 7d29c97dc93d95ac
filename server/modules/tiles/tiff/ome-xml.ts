/**
 * What the OME-XML in an OME-TIFF's first ImageDescription says about a brightfield slide: pixel size,
 * objective, acquisition time, and which top-level directories hold the label and macro images.
 * Only these few elements are read, by pattern, so no XML library (and no entity expansion) is involved.
 */
export interface OmeDescription {
  mppX: number | null;
  mppY: number | null;
  appMag: number | null;
  scanAt: string | null;
  /** Top-level directory (page) of each associated image the XML names. */
  associated: { name: 'label' | 'macro' | 'thumbnail'; page: number }[];
}

export function isOmeXml(description: string | undefined): boolean {
  return !!description && /<(?:\w+:)?OME[\s>]/.test(description.slice(0, 4096));
}

/** Microns per unit of OME's UnitsLength (the default is µm). */
const MICRONS: Record<string, number> = {
  'µm': 1, 'μm': 1, um: 1, micron: 1, nm: 1e-3, pm: 1e-6, 'Å': 1e-4, mm: 1e3, cm: 1e4, m: 1e6,
};

export function parseOmeXml(xml: string): OmeDescription {
  const images = [...xml.matchAll(/<(?:\w+:)?Image\b([^>]*)>([\s\S]*?)<\/(?:\w+:)?Image>/g)].map((m) => ({
    attrs: attributes(m[1]),
    body: m[2],
    page: firstIfd(m[2]),
  }));
  const main = images.find((i) => i.page === 0) ?? images[0];
  const out: OmeDescription = { mppX: null, mppY: null, appMag: null, scanAt: null, associated: [] };
  if (!main) return out;

  const pixels = attributes(main.body.match(/<(?:\w+:)?Pixels\b([^>]*)>/)?.[1] ?? '');
  out.mppX = physicalSize(pixels.PhysicalSizeX, pixels.PhysicalSizeXUnit);
  out.mppY = physicalSize(pixels.PhysicalSizeY, pixels.PhysicalSizeYUnit) ?? out.mppX;

  const objectives = [...xml.matchAll(/<(?:\w+:)?Objective\b([^>]*)\/?>/g)].map((m) => attributes(m[1]));
  const settingsId = attributes(main.body.match(/<(?:\w+:)?ObjectiveSettings\b([^>]*)\/?>/)?.[1] ?? '').ID;
  const objective = objectives.find((o) => settingsId && o.ID === settingsId) ?? objectives.find((o) => o.NominalMagnification);
  out.appMag = positive(objective?.NominalMagnification);

  out.scanAt = isoDateTime(main.body.match(/<(?:\w+:)?AcquisitionDate>\s*([^<]+?)\s*<\//)?.[1]);

  for (const image of images) {
    if (image === main || image.page === null) continue;
    const name = associatedName(image.attrs.Name ?? '');
    if (name && !out.associated.some((a) => a.name === name)) out.associated.push({ name, page: image.page });
  }
  return out;
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([\w:.-]+)\s*=\s*"([^"]*)"/g)) out[m[1]] = m[2];
  return out;
}

/** The IFD of an Image's first TiffData (IFD defaults to 0 when the element has none); null without TiffData. */
function firstIfd(body: string): number | null {
  const m = body.match(/<(?:\w+:)?TiffData\b([^>]*)\/?>/);
  if (!m) return null;
  const ifd = Number(attributes(m[1]).IFD ?? 0);
  return Number.isInteger(ifd) && ifd >= 0 ? ifd : null;
}

function physicalSize(value: string | undefined, unit: string | undefined): number | null {
  const v = positive(value);
  const scale = MICRONS[unit ?? 'µm'];
  return v !== null && scale ? v * scale : null;
}

function positive(v: string | undefined): number | null {
  if (v === undefined) return null;
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** ISO 8601 to the second, keeping a zone the file states; anything else is unknown. */
function isoDateTime(v: string | undefined): string | null {
  const m = v?.match(/^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/);
  return m ? `${m[1]}T${m[2]}${m[3] ?? ''}` : null;
}

function associatedName(name: string): OmeDescription['associated'][number]['name'] | null {
  if (/label/i.test(name)) return 'label';
  if (/macro|overview/i.test(name)) return 'macro';
  if (/thumbnail/i.test(name)) return 'thumbnail';
  return null;
}
