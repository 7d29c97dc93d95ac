/**
 * Pathology numbering rules (spec §3 "pathology library numbering rules: prefix, middle number, connector,
 * length, regex"; §9 separators short dash, underline, none, space). A number is
 * prefix + middle + connector + serial, the serial zero-padded to `length`. The middle is a date pattern
 * (the serial starts again at 1 when it changes: a new year, month or day) or fixed text.
 */
export interface NumberingRule {
  prefix: string;
  middle: string;
  connector: string;
  length: number;
  /** What a number typed by hand must match (the allocated ones match by construction). */
  regex?: string | null;
}

export const CONNECTORS = ['-', '_', '', ' '] as const;
export const MIDDLE_PATTERNS = ['YYYY', 'YY', 'YYYYMM', 'YYYYMMDD', ''] as const;
export const MAX_SERIAL_LENGTH = 9;

/** The hospital's default when it has not set a rule for a library: P2026-00001. */
export const DEFAULT_RULE: NumberingRule = { prefix: 'P', middle: 'YYYY', connector: '-', length: 5 };

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The middle number for `date` (local calendar of the server): the period a serial counts within. */
export function middleOf(rule: Pick<NumberingRule, 'middle'>, date: Date): string {
  const y = String(date.getFullYear());
  const m = pad(date.getMonth() + 1, 2);
  const d = pad(date.getDate(), 2);
  switch (rule.middle) {
    case 'YYYY': return y;
    case 'YY': return y.slice(2);
    case 'YYYYMM': return y + m;
    case 'YYYYMMDD': return y + m + d;
    default: return rule.middle;
  }
}

/** The number for serial `serial` in the period `middle`; undefined when the serial no longer fits the length. */
export function formatNumber(rule: NumberingRule, middle: string, serial: number): string | undefined {
  if (!Number.isInteger(serial) || serial < 1 || String(serial).length > rule.length) return undefined;
  return `${rule.prefix}${middle}${rule.connector}${pad(serial, rule.length)}`;
}

/** Why a rule cannot be used, as field → problem; empty when it can. */
export function ruleProblems(rule: NumberingRule): Record<string, string> {
  const out: Record<string, string> = {};
  if (!/^[A-Za-z0-9]{0,16}$/.test(rule.prefix)) out.prefix = 'letters and digits, at most 16';
  if (!(MIDDLE_PATTERNS as readonly string[]).includes(rule.middle) && !/^[A-Za-z0-9]{1,16}$/.test(rule.middle)) out.middle = 'a date pattern or letters and digits';
  if (!(CONNECTORS as readonly string[]).includes(rule.connector)) out.connector = 'one of "-", "_", " " or none';
  if (!Number.isInteger(rule.length) || rule.length < 1 || rule.length > MAX_SERIAL_LENGTH) out.length = `1 to ${MAX_SERIAL_LENGTH}`;
  if (rule.regex) {
    try {
      new RegExp(rule.regex);
    } catch {
      out.regex = 'not a regular expression';
    }
  }
  return out;
}

/**
 * A number typed by hand (outside-hospital material keeps its own number, a re-registration its old one):
 * it must match the rule's regex when there is one. The pattern is anchored so a match is the whole number.
 */
export function numberMatchesRule(number: string, rule: Pick<NumberingRule, 'regex'>): boolean {
  if (!rule.regex) return true;
  try {
    return new RegExp(`^(?:${rule.regex})$`).test(number);
  } catch {
    return false;
  }
}
