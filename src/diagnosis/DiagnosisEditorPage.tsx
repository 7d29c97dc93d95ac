import {
  Badge, Button, Caption1, Card, Checkbox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Dropdown, Field, MessageBar, MessageBarBody,
  Option, Spinner, Switch, Textarea, Tooltip, makeStyles, tokens,
} from '@fluentui/react-components';
import { ArrowDown20Regular, ArrowLeft20Regular } from '@fluentui/react-icons';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { notify } from '../api/notify';
import { DRAFT_FIELDS, insertAt, type DraftField } from '../core/reportDraft';
import { grossFromSampling } from '../core/grossFromSampling';
import { actionAllowed, afterFirst, mayRunReportAction, type ReportAction } from '../core/reportWorkflow';
import { transitionAllowed } from '../core/caseLifecycle';
import { useRuleSets } from '../engine/rulesApi';
import { useGrants } from '../engine/useGrants';
import { isGranted } from '../core/actions';
import { OrdersPanel } from '../pages/case-detail/OrdersPanel';
import { CaseOpinions } from '../pages/consult/CaseOpinions';
import { useSession } from '../store/session';
import { openSignedIn } from '../store/sessionHandoff';
import { loadEditor, loadPhrases, loadTemplates, runAction, saveReport, setFlags, setUrgent, type EditorData, type Phrase, type Report, type TemplateNode } from './api';
import { PreviewDialog } from './PreviewDialog';
import { SideViewer } from './SideViewer';
import { TemplatePanel } from './TemplatePanel';
import { useNextCase } from './useNextCase';
import { useReportDraft } from './useReportDraft';
import './words';

const useStyles = makeStyles({
  page: { display: 'grid', gridTemplateColumns: '280px 1fr 280px', gap: tokens.spacingHorizontalL, padding: tokens.spacingHorizontalL, minHeight: '100vh', boxSizing: 'border-box', background: tokens.colorNeutralBackground2 },
  bar: { gridColumn: '1 / 4', display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  col: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  thumbs: { display: 'grid', gridTemplateColumns: 'repeat(2, 1fr)', gap: tokens.spacingHorizontalS },
  thumb: { width: '100%', height: '80px', objectFit: 'cover', background: tokens.colorNeutralBackground3, cursor: 'pointer', border: 'none', padding: 0 },
  grow: { flexGrow: 1 },
  // Viewer beside the report: the slide takes the room of the case column, the report stays in the middle.
  split: { gridTemplateColumns: 'minmax(0, 1.2fr) minmax(320px, 1fr) 240px' },
});

/** Whether the viewer stands beside the report: this browser's choice, kept across cases. */
const SIDE_VIEWER_KEY = 'diagnosis-side-viewer';

/**
 * The diagnosis editor (issue 15): case and patient summary, specimens, slides (thumbnails open the viewer in a new tab,
 * signed in; or the viewer stands beside the report with the case's slide strip, issue 31), report
 * images, orders; the five report texts, the case's consultation opinions (CaseOpinions) with templates and phrases; save, autosave (useReportDraft) and the
 * workflow steps the doctor's roles and the report's state allow (src/core/reportWorkflow.ts, schemas/rules/workflow.json).
 */
export default function DiagnosisEditorPage() {
  const s = useStyles();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const caseId = Number(useParams().id);
  const roles = useSession((st) => st.user?.identification ?? []);
  const grants = useGrants();
  const resolve = useRuleSets();
  const [data, setData] = useState<EditorData | null>(null);
  const [error, setError] = useState('');
  const [templates, setTemplates] = useState<TemplateNode[]>([]);
  const [phrases, setPhrases] = useState<Phrase[]>([]);
  const [prompt, setPrompt] = useState<'return' | 'sign' | null>(null);
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState(false);
  const [busy, setBusy] = useState(false);
  const [beside, setBeside] = useState(() => localStorage.getItem(SIDE_VIEWER_KEY) === 'true');
  const mayAnnotate = isGranted('slide_annotation_view', grants);
  const focus = useRef<{ field: DraftField; start: number; end: number }>({ field: 'diagnosis', start: 0, end: 0 });

  const reload = useCallback(() => loadEditor(caseId).then((d) => { setData(d); return d; }).catch(() => { setError(t('diagnosis.loadFailed')); return null; }), [caseId, t]);
  useEffect(() => { void reload(); loadTemplates().then(setTemplates).catch(() => undefined); loadPhrases().then(setPhrases).catch(() => undefined); }, [reload]);

  const report = data?.report ?? null;
  const setReport = useCallback((r: Report) => setData((d) => (d ? { ...d, report: r } : d)), []);
  const can = (action: ReportAction) => !!resolve && mayRunReportAction(action, roles, { case: data?.case, report }, resolve);
  const editable = !!data && (report ? actionAllowed('save', report) : data.case.sub_phase === 'to_first') && can('save');
  // A case without a report yet starts its gross description from what gross sampling wrote.
  const start = useMemo(() => (data && !data.report
    ? { gross_description: grossFromSampling(data.specimens, data.blocks, (name, text) => t('diagnosis.grossLine', { name, text })) }
    : null), [data, t]);
  const draft = useReportDraft(caseId, report, editable, setReport, start);
  const nextCase = useNextCase(caseId, data?.case.sub_phase as string | undefined, () => (editable ? draft.save() : Promise.resolve()), t('diagnosis.noNextCase'));

  if (error) return <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar>;
  if (!data) return <Spinner data-testid="diagnosis-loading" />;
  const c = data.case;

  /** A step: unsaved text is saved first, then the step; the page shows the report as it now is. */
  const step = async (action: ReportAction, extra: { reason?: string; issue?: 'now' | 'later' } = {}) => {
    setBusy(true);
    try {
      const saved = editable ? await draft.save() : report;
      if (!saved) return;
      await runAction(saved.id, action, saved.version, extra);
      notify(t('diagnosis.done'));
      await reload();
    } finally {
      setBusy(false);
    }
  };
  // Where a phrase goes: the last cursor position in the last text field the doctor was in.
  const remember = (field: DraftField, el: HTMLTextAreaElement) => { focus.current = { field, start: el.selectionStart, end: el.selectionEnd }; };
  const insertPhrase = (p: Phrase) => {
    const { field, start, end } = focus.current;
    const next = insertAt(draft.text[field], start, end, p.text);
    draft.change(field, next.text);
    focus.current = { field, start: next.caret, end: next.caret };
  };
  const applyTemplate = (tpl: TemplateNode) => draft.setAll({ ...draft.text, ...Object.fromEntries(DRAFT_FIELDS.filter((f) => f !== 'postscript' && tpl[f as keyof TemplateNode]).map((f) => [f, String(tpl[f as keyof TemplateNode])])) });
  const toggleImage = async (id: number, on: boolean) => {
    if (!report) return;
    const images = on ? [...report.images, id] : report.images.filter((i) => i !== id);
    setReport(await saveReport(report.id, report.version, { images }));
  };
  const sub = report?.sub_phase;
  const statusWord = t(`diagnosis.statusWords.${c.case_status}`, { defaultValue: c.case_status });

  return (
    <div className={`${s.page} ${beside ? s.split : ''}`} data-testid="diagnosis-editor" data-side-viewer={beside ? 'on' : 'off'}>
      <div className={s.bar}>
        <Button icon={<ArrowLeft20Regular />} appearance="subtle" onClick={() => navigate(-1)}>{t('diagnosis.back')}</Button>
        <b data-testid="diagnosis-number">{c.pathology_number}</b>
        <span>{c.patient_name} · {c.gender ? t(`diagnosis.gender.${c.gender}`, { defaultValue: c.gender }) : ''} · {c.age ?? ''}</span>
        <Badge appearance="tint" color="brand" data-testid="diagnosis-status" data-status={c.case_status}>{statusWord}</Badge>
        <Switch label={t('diagnosis.sideViewer.toggle')} checked={beside} data-action="side-viewer"
          onChange={(_, d) => { setBeside(d.checked); localStorage.setItem(SIDE_VIEWER_KEY, String(d.checked)); }} />
        <Switch label={t('diagnosis.urgent')} checked={c.expedite_status === 1} disabled={!can('save')}
          onChange={(_, d) => { void setUrgent(c.id, d.checked).then(reload); }} />
        <span className={s.grow} />
        <Caption1 data-testid="save-state" data-state={draft.state}>{t(`diagnosis.save.${draft.state}`)}</Caption1>
        {draft.state === 'conflict' ? <Button onClick={() => { void reload().then((d) => draft.rebase(d?.report ?? null)); }}>{t('diagnosis.reload')}</Button> : null}
        {editable ? <Button onClick={() => void draft.save()} disabled={busy} data-action="save">{t('diagnosis.saveDraft')}</Button> : null}
        {editable && can('submit') && (!report || actionAllowed('submit', report)) ? (
          <Button appearance="primary" disabled={busy || draft.state === 'conflict'} onClick={() => void step('submit')} data-action="submit">
            {afterFirst(data.workflow.levels as never) === 'to_audit' ? t('diagnosis.submit') : t('diagnosis.submitToSign')}
          </Button>
        ) : null}
        {report && actionAllowed('approve', report) && can('approve') ? <Button appearance="primary" disabled={busy} onClick={() => void step('approve')} data-action="approve">{t('diagnosis.approve')}</Button> : null}
        {report && actionAllowed('return', report) && can('return') ? <Button disabled={busy} onClick={() => { setReason(''); setPrompt('return'); }} data-action="return">{t('diagnosis.return')}</Button> : null}
        {report && actionAllowed('sign', report) && can('sign') ? <Button appearance="primary" disabled={busy} onClick={() => setPrompt('sign')} data-action="sign">{t('diagnosis.sign')}</Button> : null}
        {report && sub === 'to_issue' && can('recall') ? <Button disabled={busy} onClick={() => void step('recall')} data-action="recall">{t('diagnosis.recall')}</Button> : null}
        {report && actionAllowed('print', report) && can('print') ? <Button disabled={busy} onClick={() => void step('print')} data-action="print">{t('diagnosis.print')}</Button> : null}
        {report && actionAllowed('send', report) && can('send') ? <Button disabled={busy} onClick={() => void step('send')} data-action="send">{t('diagnosis.send')}</Button> : null}
        {report ? <Button onClick={() => setPreview(true)} data-action="preview">{t('diagnosis.preview')}</Button> : null}
        <Tooltip content={t('diagnosis.nextCaseKey')} relationship="description">
          <Button icon={<ArrowDown20Regular />} iconPosition="after" onClick={() => void nextCase()} data-action="next-case">{t('diagnosis.nextCase')}</Button>
        </Tooltip>
      </div>

      {beside ? <SideViewer caseId={c.id} slides={data.slides} annotations={mayAnnotate} /> : <div className={s.col}>
        <Card>
          <b>{t('diagnosis.summary')}</b>
          {(['inspection_department', 'inspection_doctor', 'clinical_diagnosis', 'specimen_name'] as const).map((f) => (c[f] ? <Caption1 key={f}>{String(c[f])}</Caption1> : null))}
          <b>{t('diagnosis.specimens')}</b>
          {data.specimens.map((sp) => <Caption1 key={sp.id}>{sp.name}</Caption1>)}
        </Card>
        <Card>
          <b>{t('diagnosis.slides')}</b>
          {data.slides.length ? (
            <div className={s.thumbs}>
              {data.slides.map((sl) => (
                <button key={sl.id} type="button" className={s.thumb} title={`${t('diagnosis.openViewer')}: ${sl.name}`} data-slide={sl.id} onClick={() => openSignedIn(`/kfb/${c.id}/${sl.id}`)}>
                  <img src={`/api/data/kfb/thumb/${sl.id}`} alt={sl.name} style={{ width: '100%', height: '100%', objectFit: 'cover' }} />
                </button>
              ))}
            </div>
          ) : <Caption1>{t('diagnosis.noSlides')}</Caption1>}
        </Card>
        <Card>
          <b>{t('diagnosis.images')}</b>
          {data.images.length ? data.images.map((im) => (
            <Checkbox key={im.id} label={im.title || `#${im.id}`} checked={!!report?.images.includes(im.id)} disabled={!report || !editable} onChange={(_, d) => void toggleImage(im.id, !!d.checked)} />
          )) : <Caption1>{t('diagnosis.noImages')}</Caption1>}
        </Card>
        <Card>
          <b>{t('diagnosis.orders')}</b>
          <OrdersPanel compact caseId={c.id} blocks={data.blocks} specimens={data.specimens} orders={data.orders} onDone={() => void reload()}
            canOrder={!!grants?.permission.includes('case_order') && transitionAllowed('order', c)} />
          {data.orders.some((o) => o.status === 'open') ? <MessageBar intent="warning"><MessageBarBody>{t('diagnosis.ordersOpen')}</MessageBarBody></MessageBar> : null}
        </Card>
      </div>}

      <div className={s.col}>
        {report?.return_reason && sub === 'to_first' ? <MessageBar intent="warning" data-testid="return-reason"><MessageBarBody>{t('diagnosis.returnedBecause', { reason: report.return_reason })}</MessageBarBody></MessageBar> : null}
        {report?.issue_at && sub === 'to_issue' ? <MessageBar intent="info"><MessageBarBody>{t('diagnosis.issueAt', { time: new Date(report.issue_at).toLocaleString() })}</MessageBarBody></MessageBar> : null}
        {!editable && report ? <MessageBar><MessageBarBody>{t('diagnosis.readOnly')}</MessageBarBody></MessageBar> : null}
        {DRAFT_FIELDS.map((f) => (
          <Field key={f} label={t(`diagnosis.fields.${f}`)}>
            <Textarea value={draft.text[f]} readOnly={!editable} resize="vertical" rows={f === 'diagnosis' || f === 'microscopic' ? 5 : 3} data-field={f}
              onChange={(_, d) => draft.change(f, d.value)}
              onSelect={(e) => remember(f, e.currentTarget)} onKeyUp={(e) => remember(f, e.currentTarget)} onMouseUp={(e) => remember(f, e.currentTarget)} />
          </Field>
        ))}
        {report ? (
          <Card>
            <Caption1>{t('diagnosis.doctors', { first: report.first_doctor_name ?? '—', audit: report.audit_doctor_name ?? '—', sign: report.sign_doctor_name ?? '—' })}</Caption1>
            <div style={{ display: 'flex', gap: 12, alignItems: 'center' }}>
              <Switch label={t('diagnosis.followUp')} checked={report.follow_up === 'following'} onChange={(_, d) => void setFlags(report.id, report.version, { follow_up: d.checked ? 'following' : 'ended' }).then(setReport)} />
              <Field label={t('diagnosis.evaluation')} orientation="horizontal">
                <Dropdown value={t(`diagnosis.evaluations.${report.evaluation}`)} selectedOptions={[report.evaluation]} disabled={!can('approve')}
                  onOptionSelect={(_, d) => void setFlags(report.id, report.version, { evaluation: d.optionValue }).then(setReport)}>
                  {['unassessed', 'qualified', 'unqualified'].map((v) => <Option key={v} value={v}>{t(`diagnosis.evaluations.${v}`)}</Option>)}
                </Dropdown>
              </Field>
            </div>
          </Card>
        ) : null}
        {data.supplementary.length ? (
          <Card>
            <b>{t('diagnosis.supplementary')}</b>
            {data.supplementary.map((r) => <Caption1 key={r.id}>{t(`diagnosis.statusWords.supplementary_${r.sub_phase}`)} · {r.diagnosis}</Caption1>)}
          </Card>
        ) : null}
      </div>

      <div className={s.col}>
        {isGranted('consult_view', grants) ? <Card><b>{t('consult.panel.title')}</b><CaseOpinions caseId={c.id} /></Card> : null}
        <Card><TemplatePanel templates={templates} phrases={phrases} disabled={!editable} onTemplate={applyTemplate} onPhrase={insertPhrase} /></Card>
      </div>

      {prompt ? (
        <Dialog open onOpenChange={(_, d) => { if (!d.open) setPrompt(null); }}>
          <DialogSurface>
            <DialogBody>
              <DialogTitle>{prompt === 'return' ? t('diagnosis.return') : t('diagnosis.sign')}</DialogTitle>
              <DialogContent>
                {prompt === 'return' ? (
                  <Field label={t('diagnosis.returnReason')} required><Textarea value={reason} onChange={(_, d) => setReason(d.value)} data-testid="return-reason-input" /></Field>
                ) : null}
              </DialogContent>
              <DialogActions>
                <Button onClick={() => setPrompt(null)}>{t('diagnosis.cancel')}</Button>
                {prompt === 'return' ? (
                  <Button appearance="primary" disabled={!reason.trim()} onClick={() => { setPrompt(null); void step('return', { reason }); }} data-action="confirm-return">{t('diagnosis.confirm')}</Button>
                ) : (
                  <>
                    <Button onClick={() => { setPrompt(null); void step('sign', { issue: 'later' }); }} data-action="sign-later">{t('diagnosis.signLater', { hours: Math.round(data.workflow.hesitation_minutes / 60) })}</Button>
                    <Button appearance="primary" onClick={() => { setPrompt(null); void step('sign', { issue: 'now' }); }} data-action="sign-now">{t('diagnosis.signNow')}</Button>
                  </>
                )}
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      ) : null}
      {preview && report ? <PreviewDialog reportId={report.id} onClose={() => setPreview(false)} /> : null}
    </div>
  );
}
