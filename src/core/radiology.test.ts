import { describe, expect, it } from 'vitest';
import { groupSeries, radiologyKind, seriesOf, type DicomAttachment } from './radiology';

const item = (id: number, over: Partial<DicomAttachment>): DicomAttachment => ({
  id, title: `f${id}.dcm`, modality: 'CT', series_uid: '1.2.3', series_number: 1, series_description: 'Chest', instance_number: id, ...over,
});

describe('radiologyKind', () => {
  it('takes the spec\'s seven kinds in DICOM\'s codes and in the spec\'s own spelling', () => {
    expect(['CR', 'DX', 'DR', 'CT', 'MR', 'MRI', 'XA', 'DS', 'DSA', 'RF', 'US', ' ct '].map(radiologyKind))
      .toEqual(['CR', 'DR', 'DR', 'CT', 'MRI', 'MRI', 'DSA', 'DSA', 'DSA', 'RF', 'US', 'CT']);
  });
  it('refuses any other modality, and none', () => {
    expect(['SM', 'OT', 'NM', 'PT', '', null, undefined].map(radiologyKind)).toEqual([null, null, null, null, null, null, null]);
  });
});

describe('groupSeries', () => {
  it('groups by SeriesInstanceUID, orders slices by Instance Number and series by Series Number, leaves pictures out', () => {
    const series = groupSeries([
      item(5, { instance_number: 3 }), item(6, { instance_number: 1 }), item(7, { instance_number: null }),
      item(8, { modality: 'CR', series_uid: '9.9', series_number: null, series_description: null }),
      item(9, { modality: null, series_uid: null }),
      item(10, { series_uid: '1.2.4', series_number: 0, series_description: 'Scout', instance_number: 1 }),
    ]);
    expect(series).toEqual([
      { key: '1.2.4', modality: 'CT', description: 'Scout', number: 0, images: [10] },
      { key: '1.2.3', modality: 'CT', description: 'Chest', number: 1, images: [6, 5, 7] },
      { key: '9.9', modality: 'CR', description: 'f8.dcm', number: null, images: [8] },
    ]);
    expect(seriesOf(series, 5)?.key).toBe('1.2.3');
    expect(seriesOf(series, 999)?.key).toBe('1.2.4');
    expect(seriesOf([], 1)).toBeNull();
  });
  it('keeps an instance without a SeriesInstanceUID as a series of its own', () => {
    expect(groupSeries([item(1, { series_uid: null }), item(2, { series_uid: null })]).map((s) => s.key)).toEqual(['image:1', 'image:2']);
  });
});
