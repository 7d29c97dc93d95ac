import { Badge, Button, Card, makeStyles, Spinner, Text, Title2, Title3, tokens } from '@fluentui/react-components';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { displayText } from '../../api/client';
import { useChoices } from '../../engine/options';
import { useGrants } from '../../engine/useGrants';
import { isGranted } from '../../core/actions';
import { usePalette } from '../../engine/cells/palette';
import { paletteName } from '../../core/palette';
import { formatDateTime, fromStored } from '../../core/dateTime';
import { LabelsPanel } from './LabelsPanel';
import { loadLab, type Block, type Lab, type LabelKind, type Specimen, type TimelineRow } from './labApi';
import { OrdersPanel } from './OrdersPanel';
import { LabTable } from './LabTable';
import { MakingPanel } from './MakingPanel';
import { ReceiptPanel } from './ReceiptPanel';
import { CaseImages } from './CaseImages';
import { RadiologyUpload } from './RadiologyUpload';
import { CaseReports } from './CaseReports';
import { CaseSlides } from './CaseSlides';
import { RegisteredFields } from './RegisteredFields';
import { SamplingPanel } from './SamplingPanel';
import { CaseOpinions } from '../consult/CaseOpinions';
import './words';
import { transitionAllowed } from '../../core/caseLifecycle';
import { RelatedList } from '../../engine/RelatedList';

const useStyles = makeStyles({
  // Inside the shell (its main area pads), as wide as the window allows for the tables.
  root: { display: 'grid', gap: tokens.spacingVerticalL, maxWidth: '1400px' },
  head: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center', flexWrap: 'wrap', '@media print': { display: 'none' } },
  facts: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: tokens.spacingVerticalS },
  noPrint: { '@media print': { display: 'none' } },
  section: { display: 'grid', gap: tokens.spacingVerticalS },
  card: { display: 'grid', gap: tokens.spacingVerticalM },
});

/** A choice's word in the current language, or the value as it is (a hospital's rule may invent a status). */
function useWord(source: string) {
  const choices = useChoices(source);
  return useCallback((v: unknown) => (v === null || v === undefined || v === '' ? '' : choices.find((c) => String(c.value) === String(v))?.label ?? String(v)), [choices]);
}

/**
 * The case's home /case/:id (spec §2), opened from any pathology number, inside the shell: the case with its spec §4
 * status and hospital, every field registration stored (RegisteredFields: the hospital's registration form, added
 * fields included), the commands of the step it is at for whoever may run them (receipt, gross sampling with blocks
 * per specimen, slide-making steps, labels), what the lab made of it (specimens, blocks, images, glass and digital
 * slides, orders), its reports, its consultation opinions, and the timeline of every step.
 * Hand-written: a per-specimen sampling grid and a print sheet are not list or form pages.
 */
export default function CaseDetailPage() {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const id = Number(useParams().id);
  const grants = useGrants();
  const palette = usePalette();
  const can = (code: string) => !!grants?.permission.includes(code);
  const status = useWord('case_status');
  const phase = useWord('case_phase');
  const kind = useWord('case_type');
  const gender = useWord('gender');
  const reportKind = useWord('report_issue_type');
  const [lab, setLab] = useState<Lab | null>(null);
  const [error, setError] = useState('');
  /** Bumped when attachments were added here: the images list reads them again. */
  const [attached, setAttached] = useState(0);
  const reload = useCallback(() => {
    loadLab(id).then((l) => { setLab(l); setError(''); }, (e) => setError(displayText(e, t('lab.detail.notFound'))));
  }, [id, t]);
  useEffect(reload, [reload]);

  const when = useCallback((v: string | null) => { const d = fromStored(v); return d ? formatDateTime(d) : ''; }, []);
  const specimenName = useMemo(() => new Map((lab?.specimens ?? []).map((x) => [x.id, x.name])), [lab]);
  if (error) return <div className={s.root}><Text role="alert">{error}</Text><Link to="/manage/case/list">{t('lab.detail.back')}</Link></div>;
  if (!lab) return <div className={s.root}><Spinner label={t('lab.detail.loading')} /></div>;

  const c = lab.case;
  const at = (p: string, sub?: string) => c.main_phase === p && (sub === undefined || c.sub_phase === sub);
  const printed = [...new Set(lab.timeline.filter((x) => x.action.endsWith('print_labels')).map((x) => (x as TimelineRow & { detail?: { kind?: LabelKind } }).detail?.kind).filter(Boolean))] as LabelKind[];
  // A step's phase in the spec's words: the case statuses, and the report's own steps that are no status of their own
  // (signed and awaiting the hesitation period's end).
  const stage = (v: string | null) => (v ? t(`lab.detail.reportStage.${v}`, { defaultValue: status(v) }) : '');
  const moved = (r: TimelineRow) => (r.to_phase && (r.to_phase !== r.from_phase || r.to_sub_phase !== r.from_sub_phase)
    ? `${stage(r.from_sub_phase ?? r.from_phase) || '—'} → ${stage(r.to_sub_phase ?? r.to_phase)}` : '');

  return (
    <div className={s.root} lang={i18n.language} data-testid="case-detail">
      <div className={s.head}>
        <Link to="/manage/case/list">{t('lab.detail.back')}</Link>
        <Title2 data-testid="case-number" className={palette.text(paletteName(c.number_colour))} data-colour={paletteName(c.number_colour) ?? undefined}>{c.pathology_number}</Title2>
        <Badge appearance="tint" color="warning" size="large" data-testid="case-status" className={palette.badge(paletteName(c.status_colour))}
          data-colour={paletteName(c.status_colour) ?? undefined}>{status(c.case_status)}</Badge>
        <Button appearance="subtle" onClick={reload}>{t('lab.detail.refresh')}</Button>
      </div>
      <Card className={`${s.noPrint} ${s.card}`}>
        <div className={s.facts} data-testid="case-summary">
          <Text><b>{t('lab.detail.patient')}</b>: {[c.patient_name, gender(c.gender), c.age].filter((x) => x !== null && x !== '').join(' · ')}</Text>
          <Text><b>{t('lab.detail.caseType')}</b>: {kind(c.case_type)}</Text>
          <Text><b>{t('lab.detail.phase')}</b>: {phase(c.main_phase)}</Text>
          <Text data-testid="case-hospital"><b>{t('lab.detail.hospital')}</b>: {(i18n.language === 'en-US' ? c.hospital_en_name || c.hospital_name : c.hospital_name) ?? ''}</Text>
          <Text><b>{t('lab.detail.registeredAt')}</b>: {when(c.registration_at)}</Text>
        </div>
        <Title3>{t('lab.detail.registration')}</Title3>
        <RegisteredFields row={c} />
      </Card>

      {at('registration', 'to_receive') && can('case_register') && (
        <Card className={s.noPrint}><Title3>{t('lab.receipt.title')}</Title3><ReceiptPanel caseId={c.id} specimens={lab.specimens} onDone={reload} /></Card>
      )}
      {at('sample') && can('case_sample') && (
        <Card className={s.noPrint}><Title3>{t('lab.sampling.title')}</Title3><SamplingPanel caseId={c.id} specimens={lab.specimens} onDone={reload} /></Card>
      )}
      {at('slide_making') && c.sub_phase && can('case_production') && (
        <Card className={s.noPrint}><Title3>{t('lab.making.title')}</Title3><MakingPanel caseId={c.id} step={c.sub_phase} stepWord={status(c.sub_phase)} onDone={reload} /></Card>
      )}
      {lab.blocks.length > 0 && (
        <Card><Title3 className={s.noPrint}>{t('lab.labels.title')}</Title3><LabelsPanel caseId={c.id} stamp={lab.timeline.length} printed={printed} onPrinted={reload} /></Card>
      )}

      <div className={`${s.section} ${s.noPrint}`}>
        <Title3>{t('lab.detail.specimens')}</Title3>
        <LabTable<Specimen> testId="specimens" rows={lab.specimens} columns={[
          { key: 'name', label: t('lab.detail.name'), render: (r) => r.name },
          { key: 'status', label: t('lab.detail.specimenStatus'), render: (r) => t(`lab.specimenStatus.${r.status}`, { defaultValue: r.status }) },
          { key: 'reason', label: t('lab.detail.reason'), render: (r) => r.rejection_reason ?? '' },
        ]} />
        <Title3>{t('lab.detail.blocks')}</Title3>
        <LabTable<Block> testId="blocks" rows={lab.blocks} columns={[
          { key: 'number', label: t('lab.detail.blockNumber'), render: (r) => r.block_number },
          { key: 'specimen', label: t('lab.detail.specimen'), render: (r) => specimenName.get(r.specimen_id) ?? '' },
          { key: 'tissue', label: t('lab.detail.tissueCount'), render: (r) => r.tissue_count ?? '' },
          { key: 'description', label: t('lab.detail.blockDescription'), render: (r) => r.description ?? '' },
        ]} />
        <Title3>{t('lab.detail.images')}</Title3>
        {can('attachment_upload') && <RadiologyUpload caseId={c.id} onDone={() => setAttached((n) => n + 1)} />}
        <CaseImages caseId={c.id} version={`${lab.timeline.length}:${attached}`} />
        <Title3>{t('lab.detail.slides')}</Title3>
        <CaseSlides caseId={c.id} sections={lab.sections} slides={lab.slides} />
        <Title3>{t('lab.detail.orders')}</Title3>
        <OrdersPanel caseId={c.id} blocks={lab.blocks} specimens={lab.specimens} orders={lab.orders} onDone={reload}
          canOrder={can('case_order') && transitionAllowed('order', c)} />
        <Title3>{t('lab.detail.reports')}</Title3>
        <CaseReports caseId={c.id} reports={lab.reports} kind={(v) => reportKind(v)} stage={stage} canDiagnose={can('case_diagnosis')} />
        {can('follow_view') && <><Title3>{t('lab.detail.followUps')}</Title3><RelatedList alias="FollowUps" field="case_id" value={c.id} /></>}
        {isGranted('consult_view', grants) && <><Title3>{t('consult.panel.title')}</Title3><CaseOpinions caseId={c.id} /></>}
        <Title3>{t('lab.detail.timeline')}</Title3>
        <LabTable<TimelineRow> testId="timeline" rows={lab.timeline} columns={[
          { key: 'when', label: t('lab.detail.when'), render: (r) => when(r.created_at) },
          { key: 'who', label: t('lab.detail.who'), render: (r) => r.actor_name },
          { key: 'what', label: t('lab.detail.what'), render: (r) => t(`lab.timelineAction.${r.action}`, { defaultValue: r.action }) },
          { key: 'move', label: t('lab.detail.fromTo'), render: moved },
        ]} />
      </div>
    </div>
  );
}
