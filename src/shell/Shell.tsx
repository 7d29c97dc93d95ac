import { makeStyles, tokens } from '@fluentui/react-components';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { lazyChunk } from './lazyChunk';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { lockSession, logout } from '../api/auth';
import { collapsesOnOutsideClick, menuLabel, menuRoutes } from '../core/menuRules';
import { useSession } from '../store/session';
import { useSettings } from '../store/settings';
import { pendingFlag, useUploads } from '../upload/store';
import { keptAlias } from '../engine/pageRegistry';
import { Header } from './Header';
import { KeptOutlet } from './KeptOutlet';
import { announceNavigation } from './navigationIntent';
import { SideMenu } from './SideMenu';
import { Splash } from './Splash';
import { useAutoLock } from './useAutoLock';

// The lock screen is loaded when the screen locks, not with the shell.
const LockScreen = lazyChunk(() => import('./LockScreen'));
// The floating upload list (spec §2) is loaded once there are tasks or unfinished uploads to resume.
const UploadList = lazyChunk(() => import('../upload/UploadList'));

const useStyles = makeStyles({
  root: { display: 'flex', height: '100vh', overflow: 'hidden', backgroundColor: tokens.colorNeutralBackground2, '@media print': { display: 'block', height: 'auto', overflow: 'visible' } },
  column: { display: 'flex', flexDirection: 'column', flexGrow: 1, minWidth: 0 },
  main: { flexGrow: 1, overflow: 'auto', padding: tokens.spacingHorizontalL, '@media print': { overflow: 'visible', padding: 0 } },
  // A page printed from the shell (the case's label sheet) prints without the menu and the header.
  noPrint: { '@media print': { display: 'none' } },
});

/** The signed-in frame of spec §2: side menu, header (not on scanner detail or inside a frame), main area. */
export function Shell() {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const { menus, locked, clear } = useSession();
  const lockMinutes = useSettings((st) => st.settings.lock_screen_minutes);
  const [menuOpen, setMenuOpen] = useState(true);
  // Stable for the memoised side menu and header: the router's navigate changes with every address.
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  const go = useCallback((uri: string) => navigateRef.current(announceNavigation(uri)), []);
  const toggleMenu = useCallback(() => setMenuOpen((o) => !o), []);
  const menuRef = useRef<HTMLDivElement>(null);
  useAutoLock(lockMinutes);
  // However the screen locks (idle, the user menu, a reload while locked), the server locks the session as well.
  useEffect(() => {
    if (locked) lockSession().catch(() => {});
  }, [locked]);
  // A page opened while locked (a reload) waits for the unlock: the server refuses its data until then.
  const [pageShown, setPageShown] = useState(!locked);
  useEffect(() => {
    if (!locked) setPageShown(true);
  }, [locked]);
  const [hadPending] = useState(pendingFlag);
  const showUploads = useUploads((st) => st.tasks.length > 0 || st.pending.length > 0) || hadPending > 0;

  // The menu's list pages stay drawn when left (KeptOutlet); the menu bounds how many.
  const keptPaths = useMemo(() => new Set(menuRoutes(menus).filter((r) => keptAlias(r.alias)).map((r) => `/manage/${r.path}`)), [menus]);
  const keep = useCallback((pathname: string) => keptPaths.has(pathname), [keptPaths]);
  const route = useMemo(() => menuRoutes(menus).find((r) => `/manage/${r.path}` === location.pathname), [menus, location.pathname]);
  // Pages of the shell outside the menu name themselves here.
  const title = route ? menuLabel({ name: route.name, en_name: route.enName }, i18n.language)
    : location.pathname === '/manage/messages' ? t('messages.centre') : location.pathname.startsWith('/case/') ? t('header.caseHome') : '';
  useEffect(() => {
    document.title = title ? `${title} - ${t('app.titleSuffix')}` : t('app.titleSuffix');
  }, [title, t]);

  useEffect(() => {
    const onDown = (e: MouseEvent) => {
      if (menuOpen && collapsesOnOutsideClick(window.innerWidth) && menuRef.current && !menuRef.current.contains(e.target as Node)
        && !(e.target as Element).closest?.('[data-testid="menu-toggle"], [role="menu"]')) setMenuOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [menuOpen]);

  const headerHidden = location.pathname.includes('scanner/detail') || window.self !== window.top;
  const doLogout = useCallback(async () => {
    const providerLogout = await logout().catch(() => null);
    clear();
    window.location.assign(providerLogout ?? '/login');
  }, [clear]);

  return (
    <div className={s.root}>
      <div ref={menuRef} className={s.noPrint}><SideMenu open={menuOpen} pathname={location.pathname} go={go} /></div>
      <div className={s.column}>
        {headerHidden ? null : <div className={s.noPrint}><Header title={title} menuOpen={menuOpen} onToggleMenu={toggleMenu} onLogout={doLogout} /></div>}
        <main className={s.main}>
          <Suspense fallback={<Splash />}>{pageShown ? <KeptOutlet keep={keep} /> : null}</Suspense>
        </main>
      </div>
      {showUploads ? <Suspense fallback={null}><UploadList /></Suspense> : null}
      {locked ? <Suspense fallback={null}><LockScreen onLogout={doLogout} /></Suspense> : null}
    </div>
  );
}
