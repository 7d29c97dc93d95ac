import { Button, Caption1, Card, ProgressBar, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ChevronDownRegular, ChevronUpRegular, DismissRegular } from '@fluentui/react-icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../api/notify';
import { formatFileSize } from '../core/fileSize';
import { progressFor, stateLabelKey, UPLOAD_ACCEPT } from '../core/uploadPlan';
import { useUploads, type PendingResume, type SlideProgress, type UploadTask } from './store';
import { addFiles, cancelTask, discardPending, dismissTask, refreshPending, retryBind, retryTask } from './uploader';

const useStyles = makeStyles({
  root: {
    position: 'fixed', right: tokens.spacingHorizontalL, bottom: tokens.spacingVerticalL, width: '380px', maxHeight: '50vh',
    display: 'flex', flexDirection: 'column', zIndex: 1000, boxShadow: tokens.shadow16, padding: 0, gap: 0,
  },
  head: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`, borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  body: { overflowY: 'auto', padding: tokens.spacingHorizontalM, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  task: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, justifyContent: 'space-between' },
  keep: { whiteSpace: 'nowrap', flexShrink: 0 },
  name: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0, flexGrow: 1 },
  error: { color: tokens.colorPaletteRedForeground1 },
  hidden: { display: 'none' },
});

/** The floating slide upload list of spec §2: every task with size, progress, state and cancel; unfinished uploads to resume. */
export default function UploadList() {
  const s = useStyles();
  const { t } = useTranslation();
  const tasks = useUploads((st) => st.tasks);
  const pending = useUploads((st) => st.pending);
  const [open, setOpen] = useState(true);

  useEffect(() => {
    void refreshPending();
  }, []);

  if (tasks.length === 0 && pending.length === 0) return null;
  return (
    <Card className={s.root} data-testid="upload-list" role="region" aria-label={t('upload.listTitle', { count: tasks.length })}>
      <div className={s.head}>
        <Text weight="semibold">{t('upload.listTitle', { count: tasks.length })}</Text>
        <Button appearance="subtle" size="small" icon={open ? <ChevronDownRegular /> : <ChevronUpRegular />}
          aria-label={open ? t('upload.collapse') : t('upload.expand')} title={open ? t('upload.collapse') : t('upload.expand')}
          onClick={() => setOpen((o) => !o)} />
      </div>
      {open ? (
        <div className={s.body}>
          {tasks.map((task) => <TaskRow key={task.id} task={task} />)}
          {pending.length > 0 ? <Caption1>{t('upload.pendingTitle')}</Caption1> : null}
          {pending.map((p) => <PendingRow key={p.id} record={p} />)}
        </div>
      ) : null}
    </Card>
  );
}

function TaskRow({ task }: { task: UploadTask }) {
  const s = useStyles();
  const { t } = useTranslation();
  const progress = progressFor(task.state, task.progress);
  const finished = task.state === 'success' || task.state === 'error';
  return (
    <div className={s.task} data-testid="upload-task" data-state={task.state}>
      <div className={s.row}>
        <Text className={s.name} title={task.name}>{task.name}</Text>
        <Caption1>{formatFileSize(task.size)}</Caption1>
        {task.pathologyNumber ? <Caption1 data-testid="upload-case">{t('upload.toCase', { number: task.pathologyNumber })}</Caption1> : null}
        {task.state === 'error' ? <Button size="small" appearance="subtle" onClick={() => retryTask(task.id)}>{t('upload.retry')}</Button> : null}
        <Button size="small" appearance="subtle" icon={<DismissRegular />}
          aria-label={finished ? t('upload.dismiss') : t('upload.cancel')} title={finished ? t('upload.dismiss') : t('upload.cancel')}
          disabled={task.state === 'stopping'}
          onClick={() => (finished ? dismissTask(task.id) : cancelTask(task.id))} />
      </div>
      <ProgressBar value={progress / 100} thickness="large" color={task.state === 'error' ? 'error' : task.state === 'success' ? 'success' : 'brand'} />
      <div className={s.row}>
        <Caption1 data-testid="upload-state">{task.state === 'hashing' ? t('upload.hashing') : t(`upload.state.${stateLabelKey(task.state)}`)}</Caption1>
        <Caption1>{`${progress}%`}</Caption1>
      </div>
      {task.error ? <Caption1 className={s.error}>{task.error}</Caption1> : null}
      {task.bindError ? (
        <div className={s.row}>
          <Caption1 className={s.error} data-testid="upload-bind-error">{task.bindError}</Caption1>
          <Button size="small" appearance="subtle" className={s.keep} data-testid="upload-bind-retry" onClick={() => retryBind(task.id)}>{t('upload.retryBind')}</Button>
        </div>
      ) : null}
      {task.slide ? <SlideJobRow slide={task.slide} /> : null}
    </div>
  );
}

/** After bind: the slide's ingest or conversion job, its bar and step, until it is ready (or failed, with the reason). */
function SlideJobRow({ slide }: { slide: SlideProgress }) {
  const s = useStyles();
  const { t } = useTranslation();
  const working = slide.status === 'ingesting' || slide.status === 'converting';
  const failed = slide.status === 'error' || slide.status === 'needs_conversion';
  // A settled failure fills its bar in the error colour: it is an outcome, not work still to come.
  const value = slide.status === 'ready' || failed ? 100 : slide.progress ?? 0;
  // The failed job's own words when a job failed; otherwise (the file was read, and is not a slide we can serve or
  // convert) what its status means and what to do.
  const reason = slide.error ?? t(`upload.slide.reason.${slide.status}`, { defaultValue: '' });
  return (
    <div className={s.task} data-testid="upload-slide" data-status={slide.status}>
      <ProgressBar value={value / 100} thickness="medium" color={failed ? 'error' : slide.status === 'ready' ? 'success' : 'brand'}
        aria-label={t(`upload.slide.${slide.status}`, { defaultValue: slide.status })} />
      <div className={s.row}>
        <Caption1 data-testid="upload-slide-state">{t(`upload.slide.${slide.status}`, { defaultValue: slide.status })}</Caption1>
        {working ? <Caption1 data-testid="upload-slide-progress">{`${value}%`}</Caption1> : null}
      </div>
      {failed && reason ? <Caption1 className={s.error} data-testid="upload-slide-error">{reason}</Caption1> : null}
    </div>
  );
}

/** After a reload the browser cannot reopen a file: the user picks it again, matched by name, size and MD5. */
function PendingRow({ record }: { record: PendingResume }) {
  const s = useStyles();
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className={s.task} data-testid="upload-pending">
      <Caption1>{t('upload.pendingHint', { name: record.name, size: formatFileSize(record.size), progress: record.progress })}</Caption1>
      <div className={s.row}>
        <input ref={input} type="file" className={s.hidden} accept={[...UPLOAD_ACCEPT, record.name.slice(record.name.lastIndexOf('.'))].join(',')}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            if (file.name !== record.name || file.size !== record.size) notifyError(t('upload.resumeMismatch'));
            else addFiles([file], record.id);
          }} />
        <Button size="small" appearance="primary" onClick={() => input.current?.click()}>{t('upload.resume')}</Button>
        <Button size="small" onClick={() => void discardPending(record.id)}>{t('upload.discard')}</Button>
      </div>
    </div>
  );
}
