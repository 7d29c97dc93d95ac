import { Component, type ReactNode } from 'react';
import { logLocalError } from '../db/errorLog';
import { useSession } from '../store/session';

const STALE_CHUNK = /Loading chunk|dynamically imported module|Importing a module script failed|Unexpected token/i;
/** Set while a reload for a failed chunk is under way (also src/shell/lazyChunk.tsx): reload once, not in a loop. */
export const CHUNK_RELOADED_FLAG = 'dsms-chunk-reload';

/**
 * Spec §8: a chunk or script load failure (or "unexpected token" from a stale HTML fallback) reloads the
 * page once; other render errors are logged and the user is sent to /error.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: Error) {
    const user = useSession.getState().user;
    void logLocalError({
      time: new Date().toISOString(), user: { id: user?.id ?? null, realname: user?.realname ?? null },
      error: `${error.name}: ${error.message}`, page: window.location.pathname,
    });
    if (STALE_CHUNK.test(error.message) && !sessionStorage.getItem(CHUNK_RELOADED_FLAG)) {
      sessionStorage.setItem(CHUNK_RELOADED_FLAG, '1');
      window.location.reload();
      return;
    }
    sessionStorage.removeItem(CHUNK_RELOADED_FLAG);
    window.location.assign('/error');
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}
