import { createRequire } from 'node:module';
import type dcmjsModule from 'dcmjs';

/** dcmjs, loaded by the first answer that needs it (as instance-writer.ts does). */
const dictionary = () => (createRequire(import.meta.url)('dcmjs') as typeof dcmjsModule).data.DicomMetaDictionary;

type Dataset = Record<string, unknown>;
interface Denatural { vr: string; Value?: unknown[] }
export interface JsonElement { vr: string; Value?: unknown[]; InlineBinary?: string }
export type DicomJson = Record<string, JsonElement>;

const NUMERIC = new Set(['DS', 'IS', 'US', 'UL', 'SS', 'SL', 'FL', 'FD', 'UV', 'SV']);
const BINARY = new Set(['OB', 'OW', 'OD', 'OF', 'OL', 'OV', 'UN']);

/**
 * A data set (keywords → values, as the instance writer takes them) in the DICOM JSON model (PS3.18 F.2): tags as
 * 8 upper-case hex digits in order, numbers as JSON numbers, person names as `{ Alphabetic }`, binary values (the
 * ICC profile) inline as base64, empty values without `Value`. dcmjs names the VRs.
 */
export function toDicomJson(dataset: Dataset): DicomJson {
  return normalise(dictionary().denaturalizeDataset(dataset) as Record<string, Denatural>);
}

function normalise(elements: Record<string, Denatural>): DicomJson {
  const out: DicomJson = {};
  for (const tag of Object.keys(elements).sort()) {
    const { vr, Value: value = [] } = elements[tag];
    const key = tag.toUpperCase();
    if (vr === 'SQ') {
      out[key] = value.length ? { vr, Value: value.map((item) => normalise(item as Record<string, Denatural>)) } : { vr };
    } else if (BINARY.has(vr)) {
      const bytes = value[0] instanceof ArrayBuffer ? Buffer.from(value[0]) : null;
      out[key] = bytes ? { vr, InlineBinary: bytes.toString('base64') } : { vr };
    } else {
      // dcmjs keeps person names in a form of its own that serialises to the JSON model's `{ Alphabetic }`.
      const plain = vr === 'PN' ? (JSON.parse(JSON.stringify(value)) as unknown[]) : value;
      const values = plain.filter((v) => !empty(v)).map((v) => (NUMERIC.has(vr) ? Number(v) : v));
      out[key] = values.length ? { vr, Value: values } : { vr };
    }
  }
  return out;
}

const empty = (v: unknown) => v === '' || v === null || v === undefined || (typeof v === 'object' && Object.values(v as object).every((p) => p === '' || p == null));

/** Only the attributes named by tag (8 upper-case hex digits); `null` keeps every one. */
export function pick(json: DicomJson, tags: ReadonlySet<string> | null): DicomJson {
  if (!tags) return json;
  return Object.fromEntries(Object.entries(json).filter(([tag]) => tags.has(tag)));
}

/** The tag of a keyword (`PatientID` → `00100020`) or of a tag written as 8 hex digits; null for anything else. */
export function tagOf(name: string): string | null {
  if (/^[0-9A-Fa-f]{8}$/.test(name)) return name.toUpperCase();
  const { nameMap } = dictionary() as unknown as { nameMap: Record<string, { tag: string } | undefined> };
  const entry = Object.hasOwn(nameMap, name) ? nameMap[name] : undefined;
  return entry ? entry.tag.replace(/[(),]/g, '').toUpperCase() : null;
}
