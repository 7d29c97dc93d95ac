import { Button, Card, Field, Input, Link, MessageBar, MessageBarBody, Select, Spinner, Tab, TabList, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, Search20Regular } from '@fluentui/react-icons';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { displayText } from '../../api/client';
import { isGranted } from '../../core/actions';
import { formatDate, parseDate } from '../../core/dateTime';
import { STAT_PERIODS } from '../../core/statPeriods';
import { useGrants } from '../../engine/useGrants';
import { useSession } from '../../store/session';
import { DateTimeInput } from '../../widgets/dateTime/DateTimeInput';
import { exportStatistic, fetchDoctors, fetchStatistic, localOffset, type StatAnswer, type StatKind, type StatQuery } from './api';
import { StatTable } from './StatTable';
import './words';

const StatChart = lazy(() => import('./StatChart'));

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  title: { margin: 0, fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  filters: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'flex-end' },
  note: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  chart: { padding: tokens.spacingHorizontalM, minHeight: '336px' },
});

/** The filters a kind offers: case filters only where rows belong to cases. */
const CASE_KINDS: StatKind[] = ['workload', 'timeout', 'rejected', 'slides', 'slide_views', 'income'];
const DOCTOR_KINDS: StatKind[] = ['workload', 'timeout', 'rejected', 'slides', 'slide_views', 'scan_access', 'income'];
const CASE_TYPES = ['routine', 'frozen', 'cell'];

export interface StatisticsPageProps {
  title: string;
  kinds: StatKind[];
}

/**
 * A statistics page (issue 16, spec §2, §9): a statistic period or shift-day dates, hospital, doctor and case
 * type; the counts as a chart and a table with totals; export of the same query to .xlsx for export_data_role.
 */
export default function StatisticsPage({ title, kinds }: StatisticsPageProps) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const grants = useGrants();
  const { user, hospitalId } = useSession();
  const [kind, setKind] = useState<StatKind>(kinds[0]);
  const [period, setPeriod] = useState<string>('thisMonth');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [hospital, setHospital] = useState<number | undefined>(hospitalId ?? undefined);
  const [doctor, setDoctor] = useState('');
  const [caseType, setCaseType] = useState('');
  const [hours, setHours] = useState('72');
  const [doctors, setDoctors] = useState<{ id: number; name: string; realname: string | null }[]>([]);
  const [answer, setAnswer] = useState<StatAnswer | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const query = useCallback((): StatQuery => ({
    ...(period === 'custom' ? { from, to } : { period }),
    hospital_id: hospital,
    doctor_id: doctor && DOCTOR_KINDS.includes(kind) ? Number(doctor) : undefined,
    case_type: caseType && CASE_KINDS.includes(kind) ? caseType : undefined,
    hours: kind === 'timeout' ? Number(hours) || undefined : undefined,
    utc_offset: localOffset(),
  }), [period, from, to, hospital, doctor, caseType, hours, kind]);

  const load = useCallback(async () => {
    if (period === 'custom' && (!from || !to)) return;
    setBusy(true);
    setError('');
    try {
      setAnswer(await fetchStatistic(kind, query()));
    } catch (e) {
      setAnswer(null);
      setError(displayText(e, t('stat.loadFailed')));
    } finally {
      setBusy(false);
    }
  }, [kind, query, period, from, to, t]);

  // A new kind, period or hospital asks again at once; typed filters wait for the search button.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- only these choices re-query by themselves
  useEffect(() => { void load(); }, [kind, period, hospital]);
  useEffect(() => {
    let live = true;
    fetchDoctors(hospital).then((d) => live && setDoctors(d)).catch(() => live && setDoctors([]));
    return () => { live = false; };
  }, [hospital]);

  const seriesLabel = useCallback((k: string) => t(`stat.series.${k}`), [t]);
  const hospitals = user?.hospitals.data ?? [];
  const canExport = isGranted('export_data_role', grants);
  const canSetTarget = isGranted('system_setting', grants);
  const navigate = useNavigate();

  return (
    <div className={s.root} data-testid="statistics-page" data-kind={kind}>
      <h2 className={s.title}>{title}</h2>
      {kinds.length > 1 ? (
        <TabList selectedValue={kind} onTabSelect={(_, d) => setKind(d.value as StatKind)}>
          {kinds.map((k) => <Tab key={k} value={k} data-testid={`stat-kind-${k}`}>{t(`stat.kinds.${k}`)}</Tab>)}
        </TabList>
      ) : null}
      <div className={s.filters}>
        <Field label={t('stat.period')}>
          <Select value={period} onChange={(_, d) => setPeriod(d.value)} data-testid="stat-period">
            {[...STAT_PERIODS, 'custom'].map((p) => <option key={p} value={p}>{t(`stat.periods.${p}`)}</option>)}
          </Select>
        </Field>
        {period === 'custom' ? (
          <>
            <Field label={t('stat.from')}>
              <DateTimeInput dateOnly dateLabel={t('stat.from')} value={parseDate(from)} onChange={(d) => setFrom(d ? formatDate(d) : '')} data-testid="stat-from" />
            </Field>
            <Field label={t('stat.to')}>
              <DateTimeInput dateOnly dateLabel={t('stat.to')} value={parseDate(to)} onChange={(d) => setTo(d ? formatDate(d) : '')} data-testid="stat-to" />
            </Field>
          </>
        ) : null}
        {hospitals.length > 1 ? (
          <Field label={t('stat.hospital')}>
            <Select value={String(hospital ?? '')} onChange={(_, d) => setHospital(Number(d.value) || undefined)} data-testid="stat-hospital">
              {hospitals.map((h) => <option key={h.id} value={h.id}>{i18n.language === 'en-US' ? h.en_name : h.name}</option>)}
            </Select>
          </Field>
        ) : null}
        {DOCTOR_KINDS.includes(kind) ? (
          <Field label={t('stat.doctor')}>
            <Select value={doctor} onChange={(_, d) => setDoctor(d.value)} data-testid="stat-doctor">
              <option value="">{t('stat.all')}</option>
              {doctors.map((d) => <option key={d.id} value={d.id}>{d.realname || d.name}</option>)}
            </Select>
          </Field>
        ) : null}
        {CASE_KINDS.includes(kind) ? (
          <Field label={t('stat.caseType')}>
            <Select value={caseType} onChange={(_, d) => setCaseType(d.value)} data-testid="stat-case-type">
              <option value="">{t('stat.all')}</option>
              {CASE_TYPES.map((c) => <option key={c} value={c}>{t(`stat.caseTypes.${c}`)}</option>)}
            </Select>
          </Field>
        ) : null}
        {kind === 'timeout' ? (
          <Field label={t('stat.hours')}><Input type="number" min={1} max={720} value={hours} onChange={(_, d) => setHours(d.value)} /></Field>
        ) : null}
        <Button appearance="primary" icon={<Search20Regular />} onClick={() => void load()} data-testid="stat-query">{t('stat.query')}</Button>
        {canExport ? (
          <Button icon={<ArrowDownload20Regular />} onClick={() => exportStatistic(kind, query()).catch((e) => setError(displayText(e, t('stat.loadFailed'))))}
            disabled={!answer} data-testid="stat-export">{t('stat.export')}</Button>
        ) : null}
      </div>
      <span className={s.note}>{t('stat.shiftNote')}{kind === 'income' ? ` · ${t('stat.incomeNote')}` : ''}{answer ? ` · ${answer.range.from} ~ ${answer.range.to}` : ''}</span>
      {error ? <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar> : null}
      {busy && !answer ? <Spinner /> : null}
      {answer ? (
        <>
          <Card className={s.chart}>
            <Suspense fallback={<Spinner />}>
              <StatChart answer={answer} seriesLabel={seriesLabel} passRateLabel={t('stat.passRate')} />
            </Suspense>
            {answer.target !== undefined ? (
              <span className={s.note}>
                {t('stat.target', { value: answer.target })}
                {/* The qc13 target is set on SettingPassRate (system_setting writes settings). */}
                {canSetTarget ? <> · <Link href="/manage/setting/pass-rate" onClick={(e) => { e.preventDefault(); navigate('/manage/setting/pass-rate'); }} data-testid="stat-set-target">{t('stat.setTarget')}</Link></> : null}
              </span>
            ) : null}
          </Card>
          <StatTable answer={answer} seriesLabel={seriesLabel} />
        </>
      ) : null}
    </div>
  );
}
