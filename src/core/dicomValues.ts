/**
 * Values in the forms DICOM's value representations take (PS3.5 §6.2), for the exports we write. Lengths count
 * characters, as the standard does for text in UTF-8 (ISO_IR 192).
 */

/** A decimal string (DS): at most 16 characters, so as many significant digits as fit (12 at most: more is noise). */
export function decimalString(v: number): string {
  if (!Number.isFinite(v)) throw new RangeError(`not a finite number: ${v}`);
  for (let digits = 12; digits > 1; digits--) {
    const s = String(Number(v.toPrecision(digits)));
    if (s.length <= 16) return s;
  }
  return v.toExponential(1);
}

/** An age string (AS), `nnnY` / `nnnM` / `nnnD`, from the case's age and unit; null when there is none or it does not fit. */
export function ageString(age: number | null | undefined, unit: string | null | undefined): string | null {
  if (age === null || age === undefined || !Number.isInteger(age) || age < 0 || age > 999) return null;
  const letter = ({ year: 'Y', month: 'M', week: 'W', day: 'D' } as Record<string, string>)[unit ?? 'year'];
  return letter ? `${String(age).padStart(3, '0')}${letter}` : null;
}

/** Patient's Sex (CS): M, F or O from the case's gender; empty when unknown (the attribute is type 2). */
export function sexCode(gender: string | null | undefined): 'M' | 'F' | 'O' | '' {
  if (gender === 'male') return 'M';
  if (gender === 'female') return 'F';
  return gender ? 'O' : '';
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Date (DA) and time (TM) of a moment in this machine's local time, what DICOM takes a value without an offset to be. */
export function localDateTime(at: Date): { date: string; time: string } {
  return {
    date: `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}`,
    time: `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`,
  };
}

/**
 * An ISO 8601 date-time as a DICOM date-time (DT): `YYYYMMDDHHMMSS`, with its UTC offset (`&ZZXX`) when the ISO form
 * has one. A time without an offset (what scanners write) stays without one: the scanner's local time. Null when
 * `iso` is not one.
 */
export function dateTimeValue(iso: string | null | undefined): string | null {
  const m = iso?.match(/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
  const offset = zone === undefined ? '' : zone === 'Z' ? '+0000' : zone.replace(':', '');
  return `${y}${mo}${d}${h}${mi}${s}${offset}`;
}

/** Text cut to `max` characters (code points, so no character is split), trailing spaces dropped (DICOM pads with them). */
export function fitText(text: string, max: number): string {
  return [...text].slice(0, max).join('').trimEnd();
}
