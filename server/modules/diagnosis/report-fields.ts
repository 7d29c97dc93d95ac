import type { ReportDocument } from './report-data.js';
import { reportWord } from './report-words.js';

/**
 * The report's coded values as words, in the report's language: what the PDF prints and Word templates are filled
 * with, one place so both say the same (issue 30: Word showed `female` and `47year` where the PDF had 女, 47岁).
 * Codes the words do not know are printed as they are.
 */
export interface ReportFieldWords {
  hospitalName: string;
  gender: string;
  /** The unit's word (岁 / " y"; 月, 天), empty without an age: `{age}{age_unit}` reads as the PDF's age. */
  ageUnit: string;
  /** The age with its unit, as the PDF prints it (47岁, 47 y). */
  age: string;
  /** The report date, or "not signed (preview)" for a report not yet signed. */
  signAt: string;
}

export function reportFieldWords(doc: ReportDocument): ReportFieldWords {
  const c = doc.case;
  const w = (key: Parameters<typeof reportWord>[1]) => reportWord(doc.lang, key);
  const ageUnit = c.age == null ? '' : c.age_unit === 'month' || c.age_unit === 'day' ? w(c.age_unit) : w('year');
  return {
    hospitalName: doc.lang === 'en-US' && doc.hospital.en_name ? doc.hospital.en_name : doc.hospital.name,
    gender: c.gender === 'female' || c.gender === 'male' ? w(c.gender) : c.gender ?? '',
    ageUnit,
    age: c.age == null ? '' : `${c.age}${ageUnit}`,
    signAt: doc.report.sign_at ? doc.report.sign_at.slice(0, 10) : w('not_signed'),
  };
}
