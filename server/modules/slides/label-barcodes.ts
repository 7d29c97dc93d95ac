import sharp from 'sharp';
import { BinaryBitmap, BitArray, Code128Reader, DataMatrixReader, HybridBinarizer, type LuminanceSource, RGBLuminanceSource } from '@zxing/library';

/** A label photo is a few hundred pixels a side; larger is reduced to this before decoding (bounded work). */
const MAX_SIDE = 2000;
/** More than this is not a label: refused by libvips before it is decoded. */
const MAX_INPUT_PIXELS = 25 * 2 ** 20;
/** Bars are at least a few pixels tall: every second row is read. */
const ROW_STEP = 2;
/**
 * A label may be photographed turned a quarter; bars are read left to right and right to left, so 0° and 90° cover
 * every turn. A DataMatrix reads at any turn, but its windows (below) fall differently on the turned label: it is
 * looked for at each turn until found.
 */
const TURNS = [0, 90];
/**
 * ZXing finds a DataMatrix only around the middle of what it is given (its detector grows a box from the centre), and
 * on a label it is off to a side: it is looked for in square windows of the label too, of shares of its short side,
 * each a quarter window from the next (the code must sit near a window's middle). A few hundred small crops at most.
 */
const WINDOW_SHARES = [1, 0.6, 0.4];
const MAX_WINDOWS = 400;
/** The windows are looked at on the label at most this size (a DataMatrix on a label is large enough), bounding the search. */
const MATRIX_SIDE = 1000;
/** A glass slide's code is short (slide_sections.label, `<number>-<block>-<section>`): longer text is not one. */
const MAX_CODE_LENGTH = 128;

/** The label as ZXing reads it: one grey byte a pixel, at most `side` a side. */
async function luminance(image: Buffer, turn: number, side = MAX_SIDE): Promise<RGBLuminanceSource> {
  const { data, info } = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .rotate(turn).resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' }).greyscale().extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return new RGBLuminanceSource(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
}

const usable = (text: string) => {
  const t = text.trim();
  return t && t.length <= MAX_CODE_LENGTH ? t : null;
};

/**
 * Every Code128 the rows of the source cross, read both ways. Row by row here rather than through MultiFormatReader
 * (TRY_HARDER), whose own row scan missed labels whose bars sit near an edge (2 px modules at the top of a label).
 */
function code128s(source: LuminanceSource): string[] {
  const bitmap = new BinaryBitmap(new HybridBinarizer(source));
  const reader = new Code128Reader();
  const found = new Set<string>();
  let row = new BitArray(source.getWidth());
  for (let y = 0; y < source.getHeight(); y += ROW_STEP) {
    try {
      row = bitmap.getBlackRow(y, row);
    } catch {
      continue;
    }
    for (const bits of [row, reversed(row)]) {
      try {
        const text = usable(reader.decodeRow(y, bits, new Map()).getText());
        if (text) found.add(text);
      } catch {
        // No Code128 across this row (ZXing says so by throwing).
      }
    }
  }
  return [...found];
}

function reversed(row: BitArray): BitArray {
  const copy = row.clone();
  copy.reverse();
  return copy;
}

/** The DataMatrix in the source or in one of its windows (the first found), or null. */
function dataMatrix(source: LuminanceSource): string | null {
  const reader = new DataMatrixReader();
  for (const area of [source, ...windows(source)]) {
    try {
      const text = usable(reader.decode(new BinaryBitmap(new HybridBinarizer(area))).getText());
      if (text) return text;
    } catch {
      // None in this window.
    }
  }
  return null;
}

/** Square windows of the source (WINDOW_SHARES of its short side), each a quarter window from the next, edges included. */
function windows(source: LuminanceSource): LuminanceSource[] {
  const width = source.getWidth(), height = source.getHeight();
  const out: LuminanceSource[] = [];
  for (const share of WINDOW_SHARES) {
    const side = Math.floor(Math.min(width, height) * share);
    if (side < 16) continue;
    const step = Math.max(1, Math.floor(side / 4));
    const starts = (length: number) => {
      const at: number[] = [];
      for (let p = 0; p + side < length; p += step) at.push(p);
      at.push(length - side);
      return at;
    };
    for (const top of starts(height)) for (const left of starts(width)) out.push(source.crop(left, top, side, side));
  }
  return out.slice(0, MAX_WINDOWS);
}

/**
 * The codes a label image's barcodes carry (Code128, upright or turned, and DataMatrix), distinct, in the order found.
 * An image nothing is found in gives []; one that is not an image throws (the caller decides what that means).
 */
export async function decodeLabelBarcodes(image: Buffer): Promise<string[]> {
  const found = new Set<string>();
  let matrix: string | null = null;
  for (const turn of TURNS) {
    const source = await luminance(image, turn);
    for (const text of code128s(source)) found.add(text);
    if (matrix === null) {
      const large = Math.max(source.getWidth(), source.getHeight()) > MATRIX_SIDE;
      matrix = dataMatrix(large ? await luminance(image, turn, MATRIX_SIDE) : source);
      if (matrix) found.add(matrix);
    }
  }
  return [...found];
}
