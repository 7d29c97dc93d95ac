import { Button, Tooltip, makeStyles, tokens, typographyStyles } from '@fluentui/react-components';
import { Alert20Regular } from '@fluentui/react-icons';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { messagesTopic } from '../core/realtime-topics';
import { listen } from '../realtime/live';
import { useSession } from '../store/session';
import { UNREAD_POLL_MS, useUnread } from './unreadStore';

const useStyles = makeStyles({
  anchor: { position: 'relative', display: 'inline-flex' },
  // Fluent's small danger CounterBadge, drawn as one span: the bell is in the shell, whose code budget the badge
  // component family (≈4 KB gz) did not fit.
  badge: {
    position: 'absolute', top: '0', right: '0', pointerEvents: 'none',
    display: 'inline-flex', boxSizing: 'border-box', alignItems: 'center', justifyContent: 'center', ...typographyStyles.caption2Strong,
    minWidth: '16px', height: '16px', padding: `0 calc(${tokens.spacingHorizontalXXS} + ${tokens.spacingHorizontalXXS})`,
    borderRadius: tokens.borderRadiusCircular, backgroundColor: tokens.colorPaletteRedBackground3, color: tokens.colorNeutralForegroundOnBrand,
    '@media (forced-colors: active)': { outline: `${tokens.strokeWidthThin} solid CanvasText` },
  },
});

/**
 * The header's bell: the unread count, and the way to the message centre. Kept to a button and a badge (no popover):
 * it sits in the shell, whose JavaScript has a budget; the newest messages are one click away.
 */
export default function MessageBell() {
  const { t } = useTranslation();
  const s = useStyles();
  const navigate = useNavigate();
  const { count, latest, refresh } = useUnread();
  const userId = useSession((st) => st.user?.id);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), UNREAD_POLL_MS);
    const onFocus = () => void refresh();
    window.addEventListener('focus', onFocus);
    return () => { clearInterval(timer); window.removeEventListener('focus', onFocus); };
  }, [refresh]);

  // New messages are pushed at once over the realtime channel (the poll above is the fallback).
  useEffect(() => (userId ? listen(messagesTopic(userId), () => void refresh()) : undefined), [userId, refresh]);

  const newest = latest[0];
  const tip = newest ? `${t('messages.bell', { count })}: ${newest.title || newest.content}` : t('messages.bell', { count });
  return (
    <span className={s.anchor}>
      <Tooltip content={tip} relationship="label">
        <Button appearance="subtle" icon={<Alert20Regular />} onClick={() => navigate('/manage/messages')} data-testid="message-bell" />
      </Tooltip>
      {count > 0 ? <span className={s.badge} data-testid="message-badge">{count > 99 ? '99+' : count}</span> : null}
    </span>
  );
}
