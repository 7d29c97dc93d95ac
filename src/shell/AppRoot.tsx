import { FluentProvider } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { LOCAL } from '../store/storageKeys';
import { AppRoutes } from './AppRoutes';
import { bootstrap } from './bootstrap';
import { Splash } from './Splash';
import { darkTheme, lightTheme } from './theme';
import { Toasts } from './Toasts';

/** Root: theme, toasts, the start-up sequence behind a splash, then the routes. */
export function AppRoot() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    void bootstrap().then((ok) => ok && setReady(true));
  }, []);
  const dark = localStorage.getItem(LOCAL.dark) === 'true';
  const fontSize = Number(localStorage.getItem(LOCAL.fontSize)) || 16;
  return (
    <FluentProvider theme={dark ? darkTheme : lightTheme} style={{ fontSize, minHeight: '100vh' }}>
      <Toasts />
      {ready ? <AppRoutes /> : <Splash />}
    </FluentProvider>
  );
}
