import type { TFunction } from 'i18next';

/**
 * A window preset's name in the reader's language: dwv's modality presets (CT: lung, bone…), its full-range
 * `minmax`, and the file's own windows (`Default0`… when the file names them not; a named one is shown as named).
 */
export function presetLabel(t: TFunction, name: string): string {
  const fromFile = /^Default(\d+)$/.exec(name);
  if (fromFile) return t('dicom.presetName.fromFile', { n: Number(fromFile[1]) + 1 });
  return t(`dicom.presetName.${name}`, { defaultValue: name });
}

/** dwv's length units (`unit.mm`, `unit.pixel` without Pixel Spacing). */
export function unitLabel(t: TFunction, unit: string): string {
  const key = unit.replace(/^unit\./, '');
  return t(`dicom.unit.${key}`, { defaultValue: key });
}
