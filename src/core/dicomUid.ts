/**
 * Stable DICOM UIDs for what DSMS serves over DICOMweb and exports: 2.25 UIDs (ISO/IEC 9834-8) of a UUID version 8
 * whose bits say what they name, so the same slide has the same Study, Series and SOP Instance UIDs on every call,
 * after restarts and on every node, and a UID read from a URL is turned back into the slide it names without a
 * table of UIDs. The installation's random 48-bit namespace (stored in the database) fills the top of every UID:
 * another installation's UIDs, and UIDs made up by hand, do not decode.
 *
 * Bits, most significant first: namespace 48 · version 4 (8) · kind 4 · reserved 8 · variant 2 (10) ·
 * id 32 · sub 16 · tag 14. `tag` is a hash of the slide's file, so a slide whose file is replaced gets new UIDs.
 */

export const UID_KINDS = {
  /** The study of a case (id: the case). */
  caseStudy: 1,
  /** The study of a slide bound to no case (id: the slide). */
  slideStudy: 2,
  series: 3,
  /** sub: the instance number. */
  instance: 4,
  frameOfReference: 5,
  dimensionOrganization: 6,
  pyramid: 7,
  specimen: 8,
} as const;

export type UidKind = keyof typeof UID_KINDS;

export interface UidParts {
  kind: UidKind;
  id: number;
  sub: number;
  tag: number;
}

const MAX_ID = 2 ** 32 - 1;
const NAMESPACE = /^[0-9a-f]{12}$/;

/** A new namespace: 48 random bits as 12 hex digits (what the migration stores). */
export const isUidNamespace = (value: string): boolean => NAMESPACE.test(value);

/** A 14-bit tag of a text (the slide's stored file path): FNV-1a folded. */
export function uidTag(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of new TextEncoder().encode(text)) h = Math.imul(h ^ ch, 0x01000193) >>> 0;
  return (h ^ (h >>> 14) ^ (h >>> 28)) & 0x3fff;
}

export function encodeUid(namespace: string, parts: UidParts): string {
  if (!isUidNamespace(namespace)) throw new Error('bad DICOM UID namespace');
  const { id, sub, tag } = parts;
  if (!Number.isInteger(id) || id < 0 || id > MAX_ID || !Number.isInteger(sub) || sub < 0 || sub > 0xffff || !Number.isInteger(tag) || tag < 0 || tag > 0x3fff) {
    throw new Error('DICOM UID part out of range');
  }
  const value = (BigInt(`0x${namespace}`) << 80n) | (8n << 76n) | (BigInt(UID_KINDS[parts.kind]) << 72n) | (2n << 62n)
    | (BigInt(id) << 30n) | (BigInt(sub) << 14n) | BigInt(tag);
  return `2.25.${value.toString(10)}`;
}

/** The parts of a UID this installation made, or null for any other text (another root, namespace or layout). */
export function decodeUid(namespace: string, uid: string): UidParts | null {
  const m = /^2\.25\.([1-9][0-9]{0,38})$/.exec(uid);
  if (!m || !isUidNamespace(namespace)) return null;
  const value = BigInt(m[1]);
  if (value >> 128n !== 0n || value >> 80n !== BigInt(`0x${namespace}`)) return null;
  if (((value >> 76n) & 0xfn) !== 8n || ((value >> 62n) & 0x3n) !== 2n || ((value >> 64n) & 0xffn) !== 0n) return null;
  const code = Number((value >> 72n) & 0xfn);
  const kind = (Object.keys(UID_KINDS) as UidKind[]).find((k) => UID_KINDS[k] === code);
  if (!kind) return null;
  return { kind, id: Number((value >> 30n) & 0xffffffffn), sub: Number((value >> 14n) & 0xffffn), tag: Number(value & 0x3fffn) };
}
