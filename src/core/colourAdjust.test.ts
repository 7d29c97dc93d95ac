import { describe, expect, it } from 'vitest';
import { cssFilter, gammaExponent, NEUTRAL_COLOUR } from './colourAdjust';

describe('colour adjustment filter', () => {
  it('is none when nothing is adjusted', () => {
    expect(cssFilter(NEUTRAL_COLOUR, 'g')).toBe('none');
  });
  it('chains gamma (an SVG filter), brightness, contrast and saturation', () => {
    expect(cssFilter({ brightness: 1.2, contrast: 0.8, saturation: 1.5, gamma: 2 }, 'gamma-1')).toBe('url(#gamma-1) brightness(1.2) contrast(0.8) saturate(1.5)');
    expect(cssFilter({ ...NEUTRAL_COLOUR, contrast: 2 }, null)).toBe('contrast(2)');
  });
  it('keeps values within range', () => {
    expect(cssFilter({ ...NEUTRAL_COLOUR, brightness: 50 }, null)).toBe('brightness(3)');
    expect(gammaExponent({ ...NEUTRAL_COLOUR, gamma: 2 })).toBe(0.5);
  });
});
