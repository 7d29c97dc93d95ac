import { Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { passRate } from '../../core/statRates';
import type { StatAnswer } from './api';

const useStyles = makeStyles({
  wrap: { overflowX: 'auto' },
  total: { fontWeight: tokens.fontWeightSemibold, backgroundColor: tokens.colorNeutralBackground3 },
  num: { fontVariantNumeric: 'tabular-nums' },
});

const rate = (v: number | null) => (v === null ? '—' : `${v}%`);
/** Income is yuan: always two decimals, so columns line up. */
const cell = (money: boolean, v: number | string | undefined) => (money && typeof v === 'number' ? v.toFixed(2) : v);

/** The numbers of the chart: a row per shift day (or month), a column per series, the period's totals last. */
export function StatTable({ answer, seriesLabel }: { answer: StatAnswer; seriesLabel: (s: string) => string }) {
  const s = useStyles();
  const { t } = useTranslation();
  const withRate = answer.kind === 'scan_access';
  const money = answer.kind === 'income';
  return (
    <div className={s.wrap}>
      <Table size="small" data-testid="stat-table">
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{t('stat.bucket')}</TableHeaderCell>
            {answer.series.map((k) => <TableHeaderCell key={k}>{seriesLabel(k)}</TableHeaderCell>)}
            {withRate ? <TableHeaderCell>{t('stat.passRate')}</TableHeaderCell> : null}
          </TableRow>
        </TableHeader>
        <TableBody>
          {answer.rows.map((r) => (
            <TableRow key={r.bucket} data-bucket={r.bucket}>
              <TableCell>{r.bucket}</TableCell>
              {answer.series.map((k) => <TableCell key={k} className={s.num} data-series={k} data-value={r[k]}>{cell(money, r[k])}</TableCell>)}
              {withRate ? <TableCell className={s.num}>{rate(passRate(r))}</TableCell> : null}
            </TableRow>
          ))}
          <TableRow className={s.total} data-testid="stat-total">
            <TableCell>{t('stat.total')}</TableCell>
            {answer.series.map((k) => <TableCell key={k} className={s.num} data-series={k} data-value={answer.totals[k]}>{cell(money, answer.totals[k])}</TableCell>)}
            {withRate ? <TableCell className={s.num}>{rate(passRate(answer.totals))}</TableCell> : null}
          </TableRow>
        </TableBody>
      </Table>
    </div>
  );
}
