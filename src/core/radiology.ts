/**
 * Radiology attachments of a case (issue 30; spec §5: "attachments in CR, DR, CT, MRI, DSA, RF, US formats").
 * DICOM spells the spec's kinds with its own modality codes (PS3.3 C.7.3.1.1.1): DR is DX, MRI is MR, DSA is XA
 * (DS, retired, on older equipment); some equipment writes the spec's spelling itself, so both are taken.
 */
const MODALITY_OF: Readonly<Record<string, string>> = {
  CR: 'CR', DX: 'DR', DR: 'DR', CT: 'CT', MR: 'MRI', MRI: 'MRI', XA: 'DSA', DS: 'DSA', DSA: 'DSA', RF: 'RF', US: 'US',
};

/** The spec's kinds, in its order: what a refusal lists. */
export const RADIOLOGY_KINDS = ['CR', 'DR', 'CT', 'MRI', 'DSA', 'RF', 'US'] as const;

/** The spec's kind of a DICOM Modality (0008,0060) value, or null when it is none of them. */
export function radiologyKind(modality: string | null | undefined): string | null {
  return MODALITY_OF[(modality ?? '').trim().toUpperCase()] ?? null;
}

/** What the case's image list says of one DICOM attachment (GET /api/cases/{id}/images). */
export interface DicomAttachment {
  id: number;
  title: string;
  modality: string | null;
  series_uid: string | null;
  series_number: number | null;
  series_description: string | null;
  instance_number: number | null;
}

export interface RadiologySeries {
  /** The SeriesInstanceUID, or `image:{id}` for an instance that named none (a series of its own). */
  key: string;
  modality: string;
  description: string;
  number: number | null;
  /** Attachment ids in slice order: Instance Number, then upload order. */
  images: number[];
}

/**
 * The case's DICOM attachments as series (grouped by SeriesInstanceUID), in Series Number order then first upload;
 * pictures (no modality) are left out.
 */
export function groupSeries(items: readonly DicomAttachment[]): RadiologySeries[] {
  const byKey = new Map<string, { series: RadiologySeries; members: DicomAttachment[] }>();
  for (const item of items) {
    if (!item.modality) continue;
    const key = item.series_uid || `image:${item.id}`;
    let entry = byKey.get(key);
    if (!entry) {
      entry = { series: { key, modality: item.modality, description: item.series_description || item.title, number: item.series_number, images: [] }, members: [] };
      byKey.set(key, entry);
    }
    entry.members.push(item);
  }
  const order = (a: number | null, b: number | null) => (a ?? Number.MAX_SAFE_INTEGER) - (b ?? Number.MAX_SAFE_INTEGER);
  return [...byKey.values()]
    .map(({ series, members }) => ({
      ...series,
      images: [...members].sort((a, b) => order(a.instance_number, b.instance_number) || a.id - b.id).map((m) => m.id),
    }))
    .sort((a, b) => order(a.number, b.number) || a.images[0]! - b.images[0]!);
}

/** The series an attachment belongs to (the viewer's /dicom/:case/:image opens it), or the first one. */
export function seriesOf(series: readonly RadiologySeries[], imageId: number): RadiologySeries | null {
  return series.find((s) => s.images.includes(imageId)) ?? series[0] ?? null;
}

/**
 * What the browser viewer opens of one series: dwv holds every slice decoded in memory, so a series past these is
 * refused with a message instead of exhausting the tab (a CT of 2000 slices of 512² at 16 bits is 1 GiB decoded).
 */
export const VIEWER_MAX_IMAGES = 2000;
export const VIEWER_MAX_BYTES = 1024 * 1024 * 1024;
