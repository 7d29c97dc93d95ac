import {
  Badge, Button, Checkbox, Dialog, Dropdown, Option, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Tab, TabList,
  Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, makeStyles, tokens, type BadgeProps,
} from '@fluentui/react-components';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isGranted } from '../core/actions';
import { DATETIME_FORMAT } from '../core/dateRanges';
import { useChoices } from '../engine/options';
import { useGrants } from '../engine/useGrants';
import { Pager } from '../widgets/table/Pager';
import { ComposeDialog } from './ComposeDialog';
import { ClinicalAnswer } from './ClinicalAnswer';
import { destroyMessages, listInbox, listSent, markRead, type Message, type SentEntry } from './messagesApi';
import { useUnread } from './unreadStore';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, padding: tokens.spacingHorizontalL },
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  unread: { fontWeight: tokens.fontWeightSemibold },
  row: { cursor: 'pointer' },
  content: { whiteSpace: 'pre-wrap' },
  meta: { color: tokens.colorNeutralForeground3 },
});

type Box = 'inbox' | 'unread' | 'sent';
const LEVEL_COLOURS = ['informative', 'warning', 'danger'] as const;
type BadgeColor = NonNullable<BadgeProps['color']>;
const when = (iso: string) => dayjs(iso).format(DATETIME_FORMAT);

/** The message centre (issue 17): messages and notices to me, what I sent, writing and publishing. */
export default function MessageCentre() {
  const { t } = useTranslation();
  const s = useStyles();
  const navigate = useNavigate();
  const grants = useGrants();
  const setUnread = useUnread((u) => u.setCount);
  const refreshUnread = useUnread((u) => u.refresh);
  const [box, setBox] = useState<Box>('inbox');
  const [page, setPage] = useState({ page: 1, size: 20 });
  const [rows, setRows] = useState<(Message | SentEntry)[]>([]);
  const [total, setTotal] = useState(0);
  const [selected, setSelected] = useState<number[]>([]);
  const [open, setOpen] = useState<Message | SentEntry | null>(null);
  const [compose, setCompose] = useState<'message' | 'notice' | null>(null);
  // The inbox's filter by type (enum notice_type); '' is every type.
  const [type, setType] = useState('');
  const types = useChoices('notice_type');
  const typeOf = (value: string) => types.find((c) => c.value === value);

  const load = useCallback(async () => {
    const res = box === 'sent' ? await listSent(page.page, page.size) : await listInbox(page.page, page.size, box === 'unread', type || undefined);
    setRows(res.data);
    setTotal(res.total);
    setSelected([]);
  }, [box, page, type]);
  useEffect(() => { void load().catch(() => undefined); }, [load]);

  const show = async (row: Message | SentEntry) => {
    setOpen(row);
    if ('read_at' in row && !row.read_at) {
      setUnread((await markRead([row.id])).unread);
      setRows((all) => all.map((r) => (r.id === row.id ? { ...r, read_at: new Date().toISOString() } : r)));
    }
  };
  const remove = async () => {
    setUnread((await destroyMessages(selected)).unread);
    await load();
  };
  const readAll = async () => {
    setUnread((await markRead('all')).unread);
    await load();
  };
  const toggle = (id: number, on: boolean) => setSelected((ids) => (on ? [...ids, id] : ids.filter((x) => x !== id)));
  const sentView = box === 'sent';

  return (
    <div className={s.root} data-testid="message-centre">
      <div className={s.bar}>
        <TabList selectedValue={box} onTabSelect={(_, d) => { setBox(d.value as Box); setPage((p) => ({ ...p, page: 1 })); }}>
          <Tab value="inbox">{t('messages.inbox')}</Tab>
          <Tab value="unread">{t('messages.unread')}</Tab>
          <Tab value="sent">{t('messages.sentBox')}</Tab>
        </TabList>
        {box !== 'sent' ? (
          <Dropdown aria-label={t('messages.type.filter')} style={{ minWidth: 160 }} selectedOptions={[type]}
            value={type ? String(typeOf(type)?.label ?? type) : t('messages.type.all')}
            onOptionSelect={(_, d) => { setType(d.optionValue ?? ''); setPage((p) => ({ ...p, page: 1 })); }} data-testid="message-type-filter">
            <Option value="">{t('messages.type.all')}</Option>
            {types.map((c) => <Option key={String(c.value)} value={String(c.value)}>{String(c.label)}</Option>)}
          </Dropdown>
        ) : null}
        <span className={s.grow} />
        {isGranted('message_send', grants) ? <Button appearance="primary" onClick={() => setCompose('message')} data-testid="message-compose">{t('messages.compose')}</Button> : null}
        {isGranted('notice_publish', grants) ? <Button onClick={() => setCompose('notice')}>{t('messages.publishNotice')}</Button> : null}
        {!sentView ? <Button onClick={() => void readAll()}>{t('messages.markAllRead')}</Button> : null}
        <Button disabled={!selected.length} onClick={() => void remove()} data-testid="message-delete">{t('messages.delete', { count: selected.length })}</Button>
      </div>
      <Table size="small" aria-label={t('messages.centre')}>
        <TableHeader>
          <TableRow>
            <TableHeaderCell style={{ width: 40 }} />
            <TableHeaderCell style={{ width: 110 }}>{t('messages.level.label')}</TableHeaderCell>
            <TableHeaderCell style={{ width: 140 }}>{t('messages.type.label')}</TableHeaderCell>
            <TableHeaderCell>{t('messages.title')}</TableHeaderCell>
            <TableHeaderCell style={{ width: 200 }}>{t(sentView ? 'messages.to' : 'messages.from')}</TableHeaderCell>
            <TableHeaderCell style={{ width: 180 }}>{t('messages.time')}</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.length === 0 ? (
            <TableRow><TableCell colSpan={6}><Text className={s.meta}>{t('messages.none')}</Text></TableCell></TableRow>
          ) : rows.map((row) => {
            const unread = 'read_at' in row && !row.read_at;
            return (
              <TableRow key={row.id} className={s.row} onClick={() => void show(row)} data-testid="message-row" data-unread={unread ? '1' : '0'}>
                <TableCell onClick={(e) => e.stopPropagation()}>
                  <Checkbox checked={selected.includes(row.id)} onChange={(_, d) => toggle(row.id, !!d.checked)} aria-label={t('messages.select')} />
                </TableCell>
                <TableCell><Badge appearance="tint" color={LEVEL_COLOURS[row.level] ?? 'informative'}>{t(`messages.level.${row.level}`)}</Badge></TableCell>
                <TableCell data-testid="message-type">
                  <Badge appearance="outline" color={(typeOf(row.type)?.color ?? 'informative') as BadgeColor}>{String(typeOf(row.type)?.label ?? row.type)}</Badge>
                </TableCell>
                <TableCell className={unread ? s.unread : undefined}>{t(`messages.kind.${row.kind}`)} · {row.title || row.content.slice(0, 80)}</TableCell>
                <TableCell>
                  {'recipients' in row ? t('messages.readBy', { names: row.to.join(', '), read: row.read, count: row.recipients }) : row.fromUser?.realname ?? t('messages.system')}
                  {'recipients' in row && row.clinical ? ` · ${t('messages.clinical.counts', { answered: row.clinical_answered ?? 0, handled: row.clinical_handled ?? 0, count: row.recipients })}` : null}
                  {'clinical' in row && row.clinical && !('recipients' in row) ? ` · ${t(`messages.clinical.status.${row.clinical_status ?? 'none'}`)}` : null}
                </TableCell>
                <TableCell>{when(row.created_at)}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <Pager page={page.page} pageSize={page.size} total={total} onChange={(p, size) => setPage({ page: p, size })} />

      {open ? (
        <Dialog open onOpenChange={(_, d) => { if (!d.open) setOpen(null); }}>
          <DialogSurface>
            <DialogBody>
              <DialogTitle>{open.title || t(`messages.kind.${open.kind}`)}</DialogTitle>
              <DialogContent>
                <Text className={s.meta} block>{when(open.created_at)}{'fromUser' in open ? ` · ${open.fromUser?.realname ?? t('messages.system')}` : ''}</Text>
                <Text className={s.content} block data-testid="message-body">{open.content}</Text>
                {'fromUser' in open && open.clinical ? (
                  <ClinicalAnswer message={open} onAnswered={(answer) => {
                    setOpen({ ...open, ...answer });
                    setRows((all) => all.map((r) => (r.id === open.id ? { ...r, ...answer } : r)));
                  }} />
                ) : null}
              </DialogContent>
              <DialogActions>
                {'link' in open && open.link ? <Button appearance="primary" onClick={() => navigate(open.link!)}>{t('messages.openLink')}</Button> : null}
                <Button onClick={() => setOpen(null)}>{t('messages.close')}</Button>
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      ) : null}
      {compose ? <ComposeDialog mode={compose} onClose={() => setCompose(null)} onSent={() => { setCompose(null); void load(); void refreshUnread(); }} /> : null}
    </div>
  );
}
