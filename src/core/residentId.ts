/**
 * What a PRC resident identity card number (居民身份证号码, GB 11643-1999) says of its holder: 18 characters,
 * six of region, eight of birth date (YYYYMMDD), three of sequence (odd for a man, even for a woman) and an ISO 7064
 * MOD 11-2 check character (0–9 or X). A case's `id_number` holds it when the patient gave one; exports that need a
 * birth date (DICOM's Patient's Birth Date) take it from here, since a case records only the age.
 */
export interface ResidentIdFacts {
  /** YYYYMMDD, as DICOM's DA writes it. */
  birthDate: string;
  sex: 'male' | 'female';
}

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK = '10X98765432';

/** The holder's birth date and sex, or null when `value` is not a valid 18-character number (bad check digit, impossible date, born after `today`). */
export function residentIdFacts(value: string | null | undefined, today = new Date()): ResidentIdFacts | null {
  const id = (value ?? '').trim().toUpperCase();
  if (!/^\d{17}[\dX]$/.test(id)) return null;
  const sum = WEIGHTS.reduce((n, w, i) => n + w * Number(id[i]), 0);
  if (CHECK[sum % 11] !== id[17]) return null;
  const birthDate = id.slice(6, 14);
  const [y, m, d] = [Number(birthDate.slice(0, 4)), Number(birthDate.slice(4, 6)), Number(birthDate.slice(6, 8))];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1850 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  if (date.getTime() > today.getTime()) return null;
  return { birthDate, sex: Number(id[16]) % 2 === 1 ? 'male' : 'female' };
}
