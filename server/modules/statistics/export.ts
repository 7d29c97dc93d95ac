import { translate, type Language } from '../../i18n/translate.js';
import { passRate } from '../../../src/core/statRates.js';
import type { StatTable } from './queries.js';

/**
 * A statistic as .xlsx (exceljs, as the case export): one row per bucket, one column per series, a total row; headers
 * in the user's language. The numbers are the ones the page shows (the same query).
 */
/** `money`: the series are yuan (income), written with two decimals. */
export async function statisticBook(table: StatTable, lang: Language, withPassRate: boolean, money = false): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs'); // a large package: loaded by the first export, not at start
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(translate(lang, 'stat.sheet'));
  sheet.columns = [
    { header: translate(lang, 'stat.bucket'), key: 'bucket', width: 14 },
    ...table.series.map((s) => ({ header: translate(lang, `stat.series.${s}`), key: s, width: money ? 22 : 16, ...(money ? { style: { numFmt: '0.00' } } : {}) })),
    ...(withPassRate ? [{ header: translate(lang, 'stat.pass_rate'), key: 'pass_rate', width: 14 }] : []),
  ];
  for (const row of table.rows) sheet.addRow({ ...row, ...(withPassRate ? { pass_rate: passRate(row) } : {}) });
  const total = sheet.addRow({ bucket: translate(lang, 'stat.total'), ...table.totals, ...(withPassRate ? { pass_rate: passRate(table.totals) } : {}) });
  total.font = { bold: true };
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await book.xlsx.writeBuffer());
}
