import { FluentProvider } from '@fluentui/react-components';
import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import { loadToasterWith } from '../api/notify';
import { receiveHandoff } from '../store/sessionHandoff';
import { LOCAL } from '../store/storageKeys';
import { AppRoutes, preloadPageOf } from './AppRoutes';
import { bootstrap } from './bootstrap';
import { startSessionEarly } from './loadSession';
import { Splash } from './Splash';
import { startViewerEarly } from './viewerEarly';
import { darkTheme, lightTheme } from './theme';

// A toaster whose code cannot load shows nothing rather than taking the app down with it.
const Toasts = lazy((): Promise<{ default: ComponentType }> => import('./Toasts').then((m) => ({ default: m.Toasts }), () => ({ default: () => null })));

/** Root: theme, toasts (their code loaded by the first one), the start-up sequence behind a splash, then the routes. */
export function AppRoot() {
  const [ready, setReady] = useState(false);
  const [toaster, setToaster] = useState(false);
  useEffect(() => loadToasterWith(() => setToaster(true)), []);
  useEffect(() => {
    preloadPageOf(window.location.pathname);
    // A tab opened signed in (sessionHandoff.ts) has its session before anything asks with it or the guard looks.
    const handed = receiveHandoff();
    void handed.then(() => {
      startSessionEarly();
      startViewerEarly();
    });
    void Promise.all([bootstrap(), handed]).then(([ok]) => ok && setReady(true));
  }, []);
  const dark = localStorage.getItem(LOCAL.dark) === 'true';
  const fontSize = Number(localStorage.getItem(LOCAL.fontSize)) || 16;
  return (
    <FluentProvider theme={dark ? darkTheme : lightTheme} style={{ fontSize, minHeight: '100vh' }}>
      {toaster ? <Suspense fallback={null}><Toasts /></Suspense> : null}
      {ready ? <AppRoutes /> : <Splash />}
    </FluentProvider>
  );
}
