import { Card, Field, Select, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, MessageBar, MessageBarBody, makeStyles, tokens } from '@fluentui/react-components';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, displayText, unwrap } from '../../api/client';
import { STAT_PERIODS } from '../../core/statPeriods';
import { localOffset, type StatAnswer } from './api';
import './words';

const StatChart = lazy(() => import('./StatChart'));

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  title: { margin: 0, fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  sub: { margin: 0, fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  chart: { padding: tokens.spacingHorizontalM, minHeight: '336px' },
  num: { fontVariantNumeric: 'tabular-nums' },
});

interface LabelUse { id: number; name: string; en_name: string | null; count: number; percent: number }
interface LabelRecord { id: number; slide_id: number; slide_name: string; label_name: string; label_en_name: string | null; source: 'manual' | 'auto'; created_by_name: string | null; created_at: string }

/**
 * LabelStatistics (issue 16, spec §7 searchLabelPercent, maintenance_record): how often each label was put on the
 * working hospital's slides in a period, by percentage, as a chart and a table; below, the latest labellings.
 */
export default function LabelStatisticsPage() {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const [period, setPeriod] = useState('thisMonth');
  const [uses, setUses] = useState<{ total: number; data: LabelUse[] } | null>(null);
  const [records, setRecords] = useState<LabelRecord[]>([]);
  const [error, setError] = useState('');
  const en = i18n.language === 'en-US';
  const name = useCallback((zh: string, english: string | null) => (en && english ? english : zh), [en]);

  useEffect(() => {
    let live = true;
    setError('');
    Promise.all([
      unwrap<{ total: number; data: LabelUse[] }>(api.post('/config/labels/searchLabelPercent', { period, utc_offset: localOffset() })),
      unwrap<{ data: LabelRecord[] }>(api.get('/config/labels/maintenance_record', { params: { page_size: 20 } })),
    ]).then(([u, r]) => { if (live) { setUses(u); setRecords(r.data); } })
      .catch((e) => live && setError(displayText(e, t('stat.loadFailed'))));
    return () => { live = false; };
  }, [period, t]);

  const answer: StatAnswer | null = uses ? {
    kind: 'slides', range: { from: '', to: '', bucket: 'day' }, series: ['count'], totals: { count: uses.total },
    rows: uses.data.map((l) => ({ bucket: name(l.name, l.en_name), count: l.count })),
  } : null;

  return (
    <div className={s.root} data-testid="statistics-page" data-kind="labels">
      <h2 className={s.title}>{t('stat.titles.LabelStatistics')}</h2>
      <Field label={t('stat.period')}>
        <Select value={period} onChange={(_, d) => setPeriod(d.value)} data-testid="stat-period" style={{ maxWidth: 200 }}>
          {STAT_PERIODS.map((p) => <option key={p} value={p}>{t(`stat.periods.${p}`)}</option>)}
        </Select>
      </Field>
      {error ? <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar> : null}
      {!uses && !error ? <Spinner /> : null}
      {answer && uses ? (
        <>
          <Card className={s.chart}>
            <Suspense fallback={<Spinner />}><StatChart answer={answer} seriesLabel={(k) => t(`stat.series.${k}`)} passRateLabel="" /></Suspense>
          </Card>
          <Table size="small" data-testid="stat-table">
            <TableHeader><TableRow>
              <TableHeaderCell>{t('stat.label')}</TableHeaderCell><TableHeaderCell>{t('stat.series.count')}</TableHeaderCell><TableHeaderCell>{t('stat.percent')}</TableHeaderCell>
            </TableRow></TableHeader>
            <TableBody>
              {uses.data.map((l) => (
                <TableRow key={l.id} data-label={l.id}>
                  <TableCell>{name(l.name, l.en_name)}</TableCell>
                  <TableCell className={s.num}>{l.count}</TableCell>
                  <TableCell className={s.num}>{l.percent}%</TableCell>
                </TableRow>
              ))}
              <TableRow data-testid="stat-total"><TableCell>{t('stat.total')}</TableCell><TableCell className={s.num}>{uses.total}</TableCell><TableCell /></TableRow>
            </TableBody>
          </Table>
        </>
      ) : null}
      <h3 className={s.sub}>{t('stat.maintenance')}</h3>
      <Table size="small" data-testid="label-records">
        <TableHeader><TableRow>
          <TableHeaderCell>{t('stat.slide')}</TableHeaderCell><TableHeaderCell>{t('stat.label')}</TableHeaderCell>
          <TableHeaderCell>{t('stat.source')}</TableHeaderCell><TableHeaderCell>{t('stat.by')}</TableHeaderCell><TableHeaderCell>{t('stat.at')}</TableHeaderCell>
        </TableRow></TableHeader>
        <TableBody>
          {records.length ? records.map((r) => (
            <TableRow key={r.id}>
              <TableCell>{r.slide_name}</TableCell><TableCell>{name(r.label_name, r.label_en_name)}</TableCell>
              <TableCell>{t(`stat.sources.${r.source}`)}</TableCell><TableCell>{r.created_by_name ?? '—'}</TableCell>
              <TableCell>{r.created_at.replace('T', ' ').slice(0, 19)}</TableCell>
            </TableRow>
          )) : <TableRow><TableCell colSpan={5}>{t('stat.empty')}</TableCell></TableRow>}
        </TableBody>
      </Table>
    </div>
  );
}
