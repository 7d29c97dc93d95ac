import { describe, expect, it } from 'vitest';
import { slideOfViewerAddress } from './viewerAddress';

describe('slideOfViewerAddress', () => {
  it('reads the slide of every route that names one', () => {
    expect(slideOfViewerAddress('/slide/view', '?id=12')).toBe(12);
    expect(slideOfViewerAddress('/view', '?slide_id=7')).toBe(7);
    expect(slideOfViewerAddress('/outer/view', '?id=3&share=x')).toBe(3);
    expect(slideOfViewerAddress('/h5/view', '?id=4')).toBe(4);
    expect(slideOfViewerAddress('/kfb/9/15', '')).toBe(15);
    expect(slideOfViewerAddress('/kfb/case/9', '?slide=22')).toBe(22);
  });
  it('names none where the server finds the slide, or the id is not one', () => {
    expect(slideOfViewerAddress('/kfb/case/9', '')).toBeNull();
    expect(slideOfViewerAddress('/kfb/path', '?path=a/b.tiff')).toBeNull();
    expect(slideOfViewerAddress('/kfb/section/9/B2-3', '')).toBeNull();
    expect(slideOfViewerAddress('/slide/view', '?id=abc')).toBeNull();
    expect(slideOfViewerAddress('/slide/view', '?id=-2')).toBeNull();
    expect(slideOfViewerAddress('/slide/view', '')).toBeNull();
    expect(slideOfViewerAddress('/manage/slide/library', '?id=3')).toBeNull();
    expect(slideOfViewerAddress('/inner/view', '?slide_id=3')).toBeNull();
  });
});

