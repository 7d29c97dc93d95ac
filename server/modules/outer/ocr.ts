import sharp from 'sharp';
import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { glassCodeCandidates, numberKey, pathologyNumberCandidates } from '../../../src/core/labelText.js';
import { unscannedGlassByCodes } from '../slides/queries.js';
import { readText, type TesseractOptions } from './tesseract.js';

/** A label photo is a few hundred pixels a side; more than this is not a label, and decoding it is refused. */
const MAX_INPUT_PIXELS = 25 * 2 ** 20;
/** Tesseract reads printed text best at 20–40 px a letter: small labels are enlarged, large ones reduced. */
const TARGET_LONG_SIDE = 1600;
/** OCR runs at once per process at most; more wait their turn, and beyond the queue are refused (429). */
const RUNNING = 2;
const WAITING = 8;

let running = 0;
const queue: (() => void)[] = [];

async function turn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= RUNNING) {
    if (queue.length >= WAITING) throw new AppError(429, 'ocr.busy');
    await new Promise<void>((resolve) => queue.push(resolve));
  }
  running++;
  try {
    return await work();
  } finally {
    running--;
    queue.shift()?.();
  }
}

/** The image as Tesseract reads it best: grey, at a readable size, PNG. Refuses what is not an image or too big. */
async function prepare(image: Buffer): Promise<Buffer> {
  try {
    const input = sharp(image, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const { width = 0, height = 0 } = await input.metadata();
    const scale = TARGET_LONG_SIDE / Math.max(width, height, 1);
    return await input.resize({ width: Math.round(width * scale), height: Math.round(height * scale), fit: 'fill' })
      .grayscale().png({ compressionLevel: 1 }).toBuffer();
  } catch {
    throw new AppError(422, 'ocr.bad_image');
  }
}

export interface LabelReading {
  text: string;
  /** What in the text may be a pathology number. */
  candidates: string[];
  /** Cases of the slide's hospital whose number is among the candidates: the suggestion for binding. */
  matches: { case_id: number; pathology_number: string }[];
  /** Glass slides of the hospital not yet scanned whose whole code the label shows (the text under its barcode): bound to, the slide takes its block, number and stain. */
  glass_slides: { id: number; case_id: number; code: string; pathology_number: string; block_number: string; section_number: number; stain: string }[];
}

export async function readLabel(db: Db, hospitalId: number, image: Buffer, options: TesseractOptions): Promise<LabelReading> {
  const text = (await turn(async () => readText(await prepare(image), options))).replace(/\f/g, '').trim();
  const candidates = pathologyNumberCandidates(text);
  const keys = [...new Set(candidates.map(numberKey))];
  const matches = keys.length
    ? await db.selectFrom('cases').select(['id as case_id', 'pathology_number']).where('hospital_id', '=', hospitalId)
      // Compared without connectors or case: "P2026 00042" read from a label is P2026-00042 (spec §9 separators).
      .where(sql<string>`replace(replace(replace(upper(pathology_number), '-', ''), '_', ''), ' ', '')`, 'in', keys)
      .orderBy('id', 'desc').limit(10).execute()
    : [];
  const codes = glassCodeCandidates(text);
  const glass = codes.length ? await unscannedGlassByCodes(db, hospitalId, codes) : [];
  const glassSlides = glass.map(({ label, ...g }) => ({ ...g, code: label ?? `${g.pathology_number}-${g.block_number}-${g.section_number}` }));
  return { text, candidates, matches, glass_slides: glassSlides };
}
