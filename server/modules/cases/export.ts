import type { Db } from '../../db/connect.js';
import { translate, type Language } from '../../i18n/translate.js';
import type { RuleResolver } from '../../../src/core/rules.js';
import { labWords } from './lab-words.js';
import { casesByStatus, type StatusView } from './status-groups.js';
import { withDisplay } from './status.js';

/** At most this many cases in one file: a bigger export is a reporting job, not a request. */
export const EXPORT_MAX_ROWS = 10_000;

const COLUMNS = ['pathology_number', 'case_type', 'patient_name', 'gender', 'age', 'inspection_department', 'specimen_name', 'main_phase', 'case_status', 'registration_at'] as const;

const word = (lang: Language, value: unknown) => {
  const key = `lab.word.${String(value ?? '')}`;
  return Object.hasOwn(labWords, key) ? translate(lang, key) : value ?? '';
};

/**
 * CaseList export (spec §6 export_data_role) as .xlsx (exceljs): the cases in scope, or those at the given
 * statuses / stage words, newest first, with headers and phase and status words in the user's language.
 */
export async function exportCases(db: Db, hospitalIds: number[], resolve: RuleResolver, lang: Language, filter?: { keys: string[]; view: StatusView }): Promise<{ file: Buffer; rows: number }> {
  const rows: Record<string, unknown>[] = filter
    ? (await casesByStatus(db, hospitalIds, resolve, filter.keys, 1, EXPORT_MAX_ROWS, filter.view)).data
    : (await db.selectFrom('cases').selectAll().where('hospital_id', 'in', hospitalIds.length ? hospitalIds : [-1]).orderBy('id', 'desc').limit(EXPORT_MAX_ROWS).execute())
      .map((r) => withDisplay(r as Record<string, unknown>, resolve));
  const { default: ExcelJS } = await import('exceljs'); // a large package: loaded by the first export, not at start
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(translate(lang, 'lab.export.sheet'));
  sheet.columns = COLUMNS.map((c) => ({ header: translate(lang, `lab.export.${c}`), key: c, width: c === 'pathology_number' || c === 'registration_at' ? 22 : 14 }));
  for (const r of rows) {
    sheet.addRow({ ...r, case_type: word(lang, r.case_type), main_phase: word(lang, r.main_phase), case_status: word(lang, r.case_status) });
  }
  sheet.getRow(1).font = { bold: true };
  return { file: Buffer.from(await book.xlsx.writeBuffer()), rows: rows.length };
}
