import { describe, expect, it } from 'vitest';
import { FOCUS_THRESHOLD, focusByte, focusLevel, heatColour, isBlurredByte, scoreCell, summarizeFocus } from './focus';

/** A pink-and-purple checker (tissue-like saturation) of `period` px squares; period 1 is the sharpest possible. */
function checker(size: number, period: number): Uint8Array {
  const px = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dark = (Math.floor(x / period) + Math.floor(y / period)) % 2 === 0;
      px.set(dark ? [90, 40, 140] : [230, 150, 190], (y * size + x) * 3);
    }
  }
  return px;
}

describe('focus check', () => {
  it('finds no tissue on white or grey glass', () => {
    const glass = new Uint8Array(32 * 32 * 3).fill(235);
    expect(scoreCell(glass, 32, 32)).toEqual({ tissue: 0, sharpness: null });
  });

  it('scores fine detail above coarse detail above a flat stain', () => {
    const fine = scoreCell(checker(32, 1), 32, 32).sharpness!;
    const coarse = scoreCell(checker(32, 8), 32, 32).sharpness!;
    const flat = scoreCell(checker(32, 64), 32, 32).sharpness!;
    expect(fine).toBeGreaterThan(coarse);
    expect(coarse).toBeGreaterThan(flat);
    expect(flat).toBe(0);
  });

  it('summarises the share of tissue out of focus and maps glass to 0', () => {
    const s = summarizeFocus([null, 10, 500, 50, null]);
    expect(s.tissueCells).toBe(3);
    expect(s.blurredCells).toBe(2);
    expect(s.blurShare).toBeCloseTo(2 / 3);
    expect([...s.map].map(isBlurredByte)).toEqual([false, true, false, true, false]);
    expect(s.map[0]).toBe(0);
    expect(summarizeFocus([null, null]).blurShare).toBe(0);
  });

  it('puts the threshold at byte 127 and clamps', () => {
    expect(focusByte(FOCUS_THRESHOLD, FOCUS_THRESHOLD)).toBe(127);
    expect(focusByte(0, FOCUS_THRESHOLD)).toBe(1);
    expect(focusByte(1e9, FOCUS_THRESHOLD)).toBe(255);
    expect(heatColour(0)[3]).toBe(0);
    expect(heatColour(1)[0]).toBeGreaterThan(heatColour(1)[1]);
    expect(heatColour(255)[1]).toBeGreaterThan(heatColour(255)[0]);
  });

  it('picks the level nearest 1 µm per pixel within the pixel budget', () => {
    const levels = [1, 2, 4, 8, 16].map((d) => ({ width: 40000 / d, height: 30000 / d }));
    expect(focusLevel(levels, 0.25)).toBe(2);
    expect(focusLevel(levels, 0.5, 1e9)).toBe(1);
    expect(focusLevel(levels, 0.5)).toBe(2);
    expect(focusLevel(levels, null)).toBe(2);
    expect(focusLevel(levels, 0.25, 20e6)).toBe(3);
    expect(focusLevel([], 0.25)).toBe(-1);
  });
});
