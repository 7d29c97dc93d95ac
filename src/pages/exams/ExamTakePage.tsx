import {
  Body1, Button, Caption1, Card, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Link, MessageBar, MessageBarBody,
  Radio, RadioGroup, Spinner, Textarea, makeStyles, tokens,
} from '@fluentui/react-components';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { displayText } from '../../api/client';
import { clockText, timeLeftMs } from './clock';
import { answer, attemptOf, openExams, startExam, submit, type AttemptView, type OpenExam, type TakenQuestion } from './examApi';
import './words';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '920px' },
  title: { margin: 0, fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  row: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center', flexWrap: 'wrap' },
  question: { display: 'flex', gap: tokens.spacingHorizontalL, alignItems: 'flex-start' },
  thumb: { width: '160px', height: '120px', objectFit: 'contain', backgroundColor: tokens.colorNeutralBackground3, borderRadius: tokens.borderRadiusMedium },
  grow: { flexGrow: 1, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  muted: { color: tokens.colorNeutralForeground3 },
  good: { color: tokens.colorPaletteGreenForeground1 },
});

/**
 * Taking an exam (issue 32; server/modules/exams): the published exams with the candidate's attempts, then one attempt
 * with every question (its slide's thumbnail, opening in the viewer), each answer saved as it is given, the time
 * left by the server's clock, and the submission; after it, the review of each answer with the correct one and its
 * score. The server decides everything (the time, what is shown, the scores); this page only shows it.
 */
export default function ExamTakePage() {
  const s = useStyles();
  const { t } = useTranslation();
  const [query, setQuery] = useSearchParams();
  const attemptId = Number(query.get('attempt')) || null;
  const [exams, setExams] = useState<OpenExam[] | null>(null);
  const [view, setView] = useState<{ data: AttemptView; fetchedAt: number } | null>(null);
  const [error, setError] = useState('');
  const open = useCallback((id: number | null) => setQuery(id ? { attempt: String(id) } : {}), [setQuery]);
  const shown = (data: AttemptView) => setView({ data, fetchedAt: Date.now() });

  useEffect(() => {
    setError('');
    if (attemptId) attemptOf(attemptId).then(shown, (e) => setError(displayText(e, '')));
    else { setView(null); openExams().then(setExams, (e) => setError(displayText(e, ''))); }
  }, [attemptId]);

  const begin = async (exam: OpenExam) => {
    const data = await startExam(exam.id).catch(() => null);
    if (data) { shown(data); open(data.attempt.id); }
  };

  if (error) return <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar>;
  if (attemptId) {
    if (!view || view.data.attempt.id !== attemptId) return <Spinner />;
    return <Attempt view={view.data} fetchedAt={view.fetchedAt} onSubmitted={shown} onBack={() => open(null)} />;
  }
  if (!exams) return <Spinner />;
  return (
    <div className={s.root}>
      <h2 className={s.title}>{t('exam.title')}</h2>
      {exams.length === 0 && <Body1>{t('exam.none')}</Body1>}
      {exams.map((e) => {
        const running = e.attempts.find((a) => a.status === 'in_progress' && Date.parse(a.ends_at) > Date.now());
        return (
          <Card key={e.id} data-testid={`exam-${e.id}`}>
            <div className={s.row}><strong>{e.title}</strong><Caption1 className={s.muted}>{t('exam.meta', { minutes: e.time_limit_minutes, count: e.question_count, points: e.max_score })}</Caption1></div>
            {e.description && <Body1>{e.description}</Body1>}
            {e.attempts.map((a) => (
              <div key={a.id} className={s.row}>
                <Body1>{t('exam.attemptLine', { seq: a.seq, status: t(`exam.status.${a.status}`) })}</Body1>
                {a.status !== 'in_progress' && <Body1>{t('exam.scoreOf', { score: a.total_score ?? 0, max: a.max_score ?? e.max_score })}</Body1>}
                {a.status !== 'in_progress' && <Link onClick={() => open(a.id)}>{t('exam.review')}</Link>}
              </div>
            ))}
            <div className={s.row}>
              {running ? <Button appearance="primary" onClick={() => open(running.id)}>{t('exam.continue')}</Button>
                : e.attempts.length < e.max_attempts ? <Button appearance="primary" onClick={() => void begin(e)}>{t('exam.start')}</Button>
                  : <Caption1 className={s.muted}>{t('exam.noAttemptsLeft')}</Caption1>}
            </div>
          </Card>
        );
      })}
    </div>
  );
}

function Attempt({ view, fetchedAt, onSubmitted, onBack }: { view: AttemptView; fetchedAt: number; onSubmitted(v: AttemptView): void; onBack(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const { attempt, questions } = view;
  const taking = attempt.status === 'in_progress';
  const [left, setLeft] = useState(() => timeLeftMs(attempt.ends_at, view.now, fetchedAt, Date.now()));
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    if (!taking) return undefined;
    const timer = window.setInterval(() => setLeft(timeLeftMs(attempt.ends_at, view.now, fetchedAt, Date.now())), 1000);
    return () => window.clearInterval(timer);
  }, [taking, attempt.ends_at, view.now, fetchedAt]);
  const send = async () => {
    setConfirming(false);
    const data = await submit(attempt.id).catch(() => null);
    if (data) onSubmitted(data);
  };
  const complete = attempt.status === 'scored';
  return (
    <div className={s.root}>
      <div className={s.row}><Link onClick={onBack}>{t('exam.back')}</Link></div>
      <h2 className={s.title}>{attempt.title}</h2>
      {taking && (left > 0
        ? <MessageBar intent="info"><MessageBarBody data-testid="time-left">{t('exam.timeLeft', { time: clockText(left) })}</MessageBarBody></MessageBar>
        : <MessageBar intent="warning"><MessageBarBody>{t('exam.timeUp')}</MessageBarBody></MessageBar>)}
      {!taking && (
        <MessageBar intent={complete ? 'success' : 'info'}>
          <MessageBarBody data-testid="total">{t(complete ? 'exam.total' : 'exam.totalPending', { score: attempt.total_score ?? 0, max: attempt.max_score ?? 0 })}</MessageBarBody>
        </MessageBar>
      )}
      {questions.map((q, i) => <QuestionCard key={q.id} n={i + 1} q={q} attemptId={attempt.id} taking={taking && left > 0} />)}
      {taking && <div className={s.row}><Button appearance="primary" onClick={() => setConfirming(true)}>{t('exam.submit')}</Button></div>}
      <Dialog open={confirming} onOpenChange={(_, d) => setConfirming(d.open)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{t('exam.submitTitle')}</DialogTitle>
            <DialogContent>{t('exam.submitBody')}</DialogContent>
            <DialogActions>
              <Button onClick={() => setConfirming(false)}>{t('exam.cancel')}</Button>
              <Button appearance="primary" onClick={() => void send()}>{t('exam.submit')}</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </div>
  );
}

function QuestionCard({ n, q, attemptId, taking }: { n: number; q: TakenQuestion; attemptId: number; taking: boolean }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [value, setValue] = useState(q.answer ?? '');
  const [saved, setSaved] = useState(false);
  const save = async (v: string) => {
    setSaved(false);
    if (await answer(attemptId, q.id, v).then(() => true, () => false)) setSaved(true);
  };
  const reviewed = q.score !== undefined;
  const optionText = (k: number | null | undefined) => (k ? `${k}. ${q.options[k - 1] ?? ''}` : t('exam.noAnswer'));
  return (
    <Card data-testid={`question-${n}`}>
      <div className={s.question}>
        {q.slide_id && q.thumb_url && (
          <a href={`/slide/view?id=${q.slide_id}`} target="_blank" rel="noreferrer" title={t('exam.openSlide')}>
            <img className={s.thumb} src={q.thumb_url} alt={t('exam.slideThumb', { name: q.slide_name ?? '' })} />
          </a>
        )}
        <div className={s.grow}>
          <strong>{t('exam.question', { n, points: q.points })}</strong>
          <Body1>{q.prompt}</Body1>
          {q.slide_id && <Link href={`/slide/view?id=${q.slide_id}`} target="_blank">{t('exam.openSlide')}</Link>}
          {taking && q.kind === 'choice' && (
            <RadioGroup value={value} onChange={(_, d) => { setValue(d.value); void save(d.value); }}>
              {q.options.map((o, k) => <Radio key={o + k} value={String(k + 1)} label={`${k + 1}. ${o}`} />)}
            </RadioGroup>
          )}
          {taking && q.kind === 'text' && (
            <Textarea aria-label={t('exam.yourAnswer')} value={value} maxLength={4000} resize="vertical"
              onChange={(_, d) => { setValue(d.value); setSaved(false); }} onBlur={() => { if (value !== (q.answer ?? '') || !saved) void save(value); }} />
          )}
          {taking && saved && <Caption1 className={s.muted}>{t('exam.saved')}</Caption1>}
          {reviewed && (
            <>
              <Body1>{t('exam.labelled', { label: t('exam.yourAnswer'), value: q.kind === 'choice' ? optionText(q.answer ? Number(q.answer) : null) : q.answer || t('exam.noAnswer') })}</Body1>
              <Body1 className={s.good}>{q.kind === 'choice' ? t('exam.labelled', { label: t('exam.correct'), value: optionText(q.correct_option) }) : t('exam.labelled', { label: t('exam.modelAnswer'), value: q.model_answer ?? '' })}</Body1>
              <Body1 data-testid={`score-${n}`}>{t('exam.labelled', { label: t('exam.score'), value: q.score === null ? t('exam.awaiting') : t('exam.scoreOf', { score: q.score, max: q.points }) })}</Body1>
            </>
          )}
        </div>
      </div>
    </Card>
  );
}
