import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, makeStyles } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromStored } from '../core/dateTime';
import { DateTimeInput } from '../widgets/dateTime/DateTimeInput';
import { MEETING_NAME_MAX } from '../core/meeting';
import { updateMeeting, type MeetingDetail, type SlideChoice } from './meetingApi';
import { SlidePicker } from './SlidePicker';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: '8px' },
});

/** A datetime-local input's value (local time, minutes) for a stored ISO time. */

/** A meeting manager renames, re-times or changes the slides of an open meeting; everyone sees it at once. */
export function EditMeetingDialog({ meeting, onSaved, onClose }: { meeting: MeetingDetail; onSaved(m: MeetingDetail): void; onClose(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [name, setName] = useState(meeting.name);
  const [start, setStart] = useState<Date | null>(fromStored(meeting.start_at));
  const [chosen, setChosen] = useState<SlideChoice[]>(meeting.slides);
  const [busy, setBusy] = useState(false);

  const save = () => {
    setBusy(true);
    // A refusal is toasted by the API client in the user's language; the dialog stays open to correct it.
    updateMeeting(meeting.id, { name: name.trim(), slide_ids: chosen.map((c) => c.id), ...(start ? { start_at: start.toISOString() } : {}) })
      .then((m) => { onSaved(m); onClose(); }, () => undefined).finally(() => setBusy(false));
  };

  return (
    <Dialog open onOpenChange={(_, d) => { if (!d.open) onClose(); }}>
      <DialogSurface data-testid="meeting-edit-dialog">
        <DialogBody>
          <DialogTitle>{t('meeting.edit')}</DialogTitle>
          <DialogContent className={s.content}>
            <Field label={t('meeting.name')} required>
              <Input value={name} maxLength={MEETING_NAME_MAX} data-testid="meeting-edit-name" onChange={(_, d) => setName(d.value)} />
            </Field>
            <Field label={t('meeting.startAt')}>
              <DateTimeInput value={start} data-testid="meeting-edit-start" dateLabel={t('meeting.startAt')} onChange={setStart} />
            </Field>
            <SlidePicker chosen={chosen} onChange={setChosen} />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('meeting.cancel')}</Button>
            <Button appearance="primary" disabled={busy || !name.trim() || chosen.length === 0} data-testid="meeting-edit-save" onClick={save}>{t('meeting.save')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
