import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import { logLocalError } from './db/errorLog';
import { useSession } from './store/session';
import { AppRoot } from './shell/AppRoot';

// JS errors outside React (spec §7: logged with the current route path).
const report = (error: string) => {
  const user = useSession.getState().user;
  void logLocalError({ time: new Date().toISOString(), user: { id: user?.id ?? null, realname: user?.realname ?? null }, error, page: window.location.pathname });
};
window.addEventListener('error', (e) => report(`${e.message} @ ${e.filename}:${e.lineno}`));
window.addEventListener('unhandledrejection', (e) => report(`unhandled rejection: ${String((e.reason as Error)?.message ?? e.reason)}`));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppRoot />
  </StrictMode>,
);
