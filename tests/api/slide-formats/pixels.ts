import sharp, { type Sharp } from 'sharp';
import { expect } from 'vitest';

/** The tile size of every pyramid these tests write. */
export const T = 256;
/** The picture the Deep Zoom images and TIFFs are made of: 6-pixel blocks, so a 1-pixel misalignment shows. */
export const PIC = { width: 1100, height: 800 };

/** The picture's raw RGB bytes: blocky noise, slightly blurred. */
export async function makePicture(): Promise<Buffer> {
  return sharp({ create: { width: 184, height: 134, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .resize(184 * 6, 134 * 6, { kernel: 'nearest' }).extract({ left: 0, top: 0, ...PIC }).blur(1).raw().toBuffer();
}

/** The picture as a sharp pipeline, to encode or cut. */
export const pictureImage = (picture: Buffer) => sharp(picture, { raw: { ...PIC, channels: 3 } });

export interface Rgb { data: Buffer; width: number; height: number }

export async function rgb(input: Buffer | Sharp): Promise<Rgb> {
  const s = Buffer.isBuffer(input) ? sharp(input) : input;
  const { data, info } = await s.toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Lossy but in place: close to the reference, and clearly closer than the reference moved by one pixel either way. */
export function expectAligned(got: Rgb, ref: Rgb, maxDiff: number, what: string): void {
  const aligned = meanAbsDiff(got, ref, 1, 1, 0, 0);
  expect(aligned, what).toBeLessThan(maxDiff);
  for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    expect(aligned, `${what} against itself moved by (${dx}, ${dy})`).toBeLessThan(meanAbsDiff(got, ref, 1, 1, dx, dy) - 2);
  }
}

/** Mean absolute difference over the pixels `margin` inside both images, `b` read shifted by (dx, dy). */
export function meanAbsDiff(a: Rgb, b: Rgb, marginX = 0, marginY = 0, dx = 0, dy = 0): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let sum = 0, n = 0;
  for (let y = marginY; y < a.height - marginY; y++) {
    for (let x = marginX; x < a.width - marginX; x++) {
      for (let c = 0; c < 3; c++) sum += Math.abs(a.data[(y * a.width + x) * 3 + c] - b.data[((y + dy) * b.width + x + dx) * 3 + c]);
      n += 3;
    }
  }
  return sum / n;
}
