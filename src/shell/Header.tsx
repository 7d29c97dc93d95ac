import { Button, Hamburger, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { FullScreenMaximize20Regular, FullScreenMinimize20Regular } from '@fluentui/react-icons';
import { Suspense, memo, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HospitalSwitcher } from './HospitalSwitcher';
import { UserMenu } from './UserMenu';
import { lazyChunk } from './lazyChunk';

// The bell and its popover load after the shell: the login + shell budget (300 KB gz) has no room for them.
const MessageBell = lazyChunk(() => import('../messages/MessageBell'));

const useStyles = makeStyles({
  root: {
    height: '48px', display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, paddingInline: tokens.spacingHorizontalM,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, backgroundColor: tokens.colorNeutralBackground1,
  },
  title: { fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold, flexGrow: 1, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
});

// Memoised: the shell re-renders on every address change (a list rewriting its query), the header need not.
export const Header = memo(function Header({ title, menuOpen, onToggleMenu, onLogout }: { title: string; menuOpen: boolean; onToggleMenu(): void; onLogout(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [full, setFull] = useState(!!document.fullscreenElement);
  useEffect(() => {
    const on = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);
  const toggleFull = () => (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen()).catch(() => {});

  return (
    <header className={s.root} data-testid="header">
      <Hamburger onClick={onToggleMenu} aria-expanded={menuOpen} title={t(menuOpen ? 'header.collapseMenu' : 'header.expandMenu')} data-testid="menu-toggle" />
      <div className={s.title}>{title}</div>
      <HospitalSwitcher />
      <Suspense fallback={null}><MessageBell /></Suspense>
      <Tooltip content={t(full ? 'header.exitFullscreen' : 'header.fullscreen')} relationship="label">
        <Button appearance="subtle" icon={full ? <FullScreenMinimize20Regular /> : <FullScreenMaximize20Regular />} onClick={toggleFull} />
      </Tooltip>
      <UserMenu onLogout={onLogout} />
    </header>
  );
});
