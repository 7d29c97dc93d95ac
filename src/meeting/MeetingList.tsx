import {
  Badge, Button, Field, Input, makeStyles, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, tokens,
} from '@fluentui/react-components';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isGranted } from '../core/actions';
import { formatDateTime } from '../core/dateTime';
import { MEETING_NAME_MAX } from '../core/meeting';
import { useGrants } from '../engine/useGrants';
import { Pager } from '../widgets/table/Pager';
import { createMeeting, listMeetings, slideById, type Meeting, type SlideChoice } from './meetingApi';
import { SlidePicker } from './SlidePicker';
import { DateTimeInput } from '../widgets/dateTime/DateTimeInput';

const useStyles = makeStyles({
  root: { position: 'fixed', inset: 0, overflowY: 'auto', padding: '16px 24px', display: 'flex', flexDirection: 'column', gap: '16px', backgroundColor: tokens.colorNeutralBackground2 },
  card: { padding: '16px', backgroundColor: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusMedium, boxShadow: tokens.shadow4, display: 'flex', flexDirection: 'column', gap: '8px' },
  row: { display: 'flex', gap: '12px', alignItems: 'flex-end', flexWrap: 'wrap' },
  coverCol: { width: '96px' },
  thumb: { width: '64px', height: '44px', objectFit: 'cover', backgroundColor: tokens.colorNeutralBackground3, verticalAlign: 'middle' },
});

/** The server's page size cap is 200. */
const PAGE_SIZES = [20, 50, 100, 200] as const;

/** The hospital's meetings (open first) with a join link; a meeting manager also starts one here. */
export function MeetingList({ preselect }: { preselect: number | null }) {
  const s = useStyles();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const grants = useGrants();
  const [rows, setRows] = useState<Meeting[]>([]);
  const [total, setTotal] = useState(0);
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });

  const reload = useCallback(() => {
    void listMeetings(paging.page, paging.pageSize).then((r) => { setRows(r.data); setTotal(r.total); }, () => undefined);
  }, [paging]);
  useEffect(reload, [reload]);
  useEffect(() => { document.title = `${t('meeting.title')} · DSMS`; }, [t]);

  return (
    <div className={s.root} data-testid="meeting-list">
      <Text size={600} weight="semibold">{t('meeting.title')}</Text>
      {isGranted('meeting_manage', grants) && <CreateMeeting preselect={preselect} onCreated={(id) => navigate(`/meeting/view?id=${id}`)} />}
      <div className={s.card}>
        <Text weight="semibold">{t('meeting.list', { count: total })}</Text>
        {rows.length === 0 ? <Text>{t('meeting.none')}</Text> : (
          <Table size="small">
            <TableHeader>
              <TableRow>
                <TableHeaderCell className={s.coverCol}>{t('meeting.cover')}</TableHeaderCell>
                <TableHeaderCell>{t('meeting.name')}</TableHeaderCell>
                <TableHeaderCell>{t('meeting.startAt')}</TableHeaderCell>
                <TableHeaderCell>{t('meeting.host')}</TableHeaderCell>
                <TableHeaderCell>{t('meeting.statusLabel')}</TableHeaderCell>
                <TableHeaderCell />
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((m) => (
                <TableRow key={m.id} data-testid="meeting-row" data-id={m.id}>
                  <TableCell>{m.cover_slide_id !== null && <img className={s.thumb} alt="" src={`/api/data/kfb/thumb/${m.cover_slide_id}`} />}</TableCell>
                  <TableCell>{m.name}</TableCell>
                  <TableCell>{formatDateTime(new Date(m.start_at))}</TableCell>
                  <TableCell>{m.host_name}</TableCell>
                  <TableCell><Badge appearance="tint" color={m.status === 'open' ? 'success' : 'informative'}>{t(`meeting.status.${m.status}`)}</Badge></TableCell>
                  <TableCell>
                    <Button size="small" appearance={m.status === 'open' ? 'primary' : 'secondary'} data-testid="meeting-join" onClick={() => navigate(`/meeting/view?id=${m.id}`)}>
                      {m.status === 'open' ? t('meeting.join') : t('meeting.view')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <Pager page={paging.page} pageSize={paging.pageSize} total={total} sizes={PAGE_SIZES} onChange={(page, pageSize) => setPaging({ page, pageSize })} />
      </div>
    </div>
  );
}

/** Name, time and the slides to read (searched in the slide library); the first chosen slide is the cover. */
function CreateMeeting({ preselect, onCreated }: { preselect: number | null; onCreated(id: number): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [start, setStart] = useState<Date | null>(null);
  const [chosen, setChosen] = useState<SlideChoice[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (preselect) void slideById(preselect).then((sl) => { if (sl) setChosen((c) => (c.some((x) => x.id === sl.id) ? c : [sl, ...c])); });
  }, [preselect]);

  const submit = () => {
    setBusy(true);
    // Bad input comes back as the server's translated message, toasted by the API client.
    createMeeting({ name: name.trim(), slide_ids: chosen.map((c) => c.id), ...(start ? { start_at: start.toISOString() } : {}) })
      .then((m) => onCreated(m.id), () => undefined).finally(() => setBusy(false));
  };

  return (
    <div className={s.card} data-testid="meeting-create">
      <Text weight="semibold">{t('meeting.create')}</Text>
      <div className={s.row}>
        <Field label={t('meeting.name')} required>
          <Input value={name} maxLength={MEETING_NAME_MAX} data-testid="meeting-name" onChange={(_, d) => setName(d.value)} />
        </Field>
        <Field label={t('meeting.startAt')} hint={t('meeting.startHint')}>
          <DateTimeInput value={start} data-testid="meeting-start" dateLabel={t('meeting.startAt')} onChange={setStart} />
        </Field>
      </div>
      <SlidePicker chosen={chosen} onChange={setChosen} />
      <div>
        <Button appearance="primary" disabled={busy || !name.trim() || chosen.length === 0} data-testid="meeting-create-submit" onClick={submit}>{t('meeting.start')}</Button>
      </div>
    </div>
  );
}
