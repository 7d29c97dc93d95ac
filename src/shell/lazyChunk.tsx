import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { Component, lazy, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ChunkLoadError, loadChunk } from '../core/chunkLoad';
import { CHUNK_LOAD_TIMEOUT_MS } from '../core/constants';
import { CHUNK_RELOADED_FLAG } from './ErrorBoundary';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

/** A lazily loaded component that can be asked for ahead of being drawn. */
export type LazyChunk<P> = ComponentType<P> & { preload(): void };

/**
 * React.lazy with the spec's chunk rules: the load gives up after 120 s (§9); a chunk that does not arrive
 * reloads the page once (§8, the same once-per-tab flag as the app's ErrorBoundary, which a stale deployment
 * needs), and after that the place the chunk belongs shows a translated error with a retry, while the menu and
 * header keep working, instead of the whole app going to /error.
 * `preload()` fetches it ahead (a viewer address opened directly, a slide list about to open the viewer): a place
 * drawn once its code is in is drawn at once, not suspended. React.lazy suspends on its first draw even then, and
 * React holds the content of a Suspense boundary whose fallback has just been shown for 300 ms (its fallback
 * throttle): the viewer opened directly waited that long with nothing left to load (scripts/bench/viewer.ts --trace).
 */
export function lazyChunk<P extends object>(load: Loader<P>): LazyChunk<P> {
  let loaded: ComponentType<P> | null = null;
  const loadAndKeep = () => loadChunk(load).then((m) => { loaded = m.default; return m; });
  // The flag is not cleared when a chunk loads: a page is often two chunks (SchemaPage, then its renderer), and
  // clearing on the first would reload in a loop while the second keeps failing. Once per tab, then the panel.
  const make = () => lazy(loadAndKeep) as unknown as ComponentType<P>;
  let Lazy = make();
  function Chunk(props: P) {
    const [attempt, setAttempt] = useState(0);
    // Decided once per place: switching from the lazy component to the loaded one later would draw it anew.
    const [Loaded] = useState(() => loaded);
    const retry = () => {
      Lazy = make();
      setAttempt((n) => n + 1);
    };
    const Shown = Loaded ?? Lazy;
    return <ChunkBoundary key={attempt} onRetry={retry}><Shown {...props} /></ChunkBoundary>;
  }
  Chunk.preload = () => { if (!loaded) loadAndKeep().catch(() => {}); };
  return Chunk;
}

interface BoundaryProps { onRetry(): void; children: ReactNode }

/** Catches only chunk failures; any other error goes on to the boundary above. */
class ChunkBoundary extends Component<BoundaryProps, { error: unknown }> {
  state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  componentDidCatch(error: unknown) {
    if (!(error instanceof ChunkLoadError) || sessionStorage.getItem(CHUNK_RELOADED_FLAG)) return;
    sessionStorage.setItem(CHUNK_RELOADED_FLAG, '1');
    window.location.reload();
  }

  render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!(error instanceof ChunkLoadError)) throw error;
    return <ChunkFailed reason={error.reason} onRetry={this.props.onRetry} />;
  }
}

const useStyles = makeStyles({
  panel: {
    display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap',
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`, borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorStatusDangerBackground1, border: `1px solid ${tokens.colorStatusDangerBorder1}`,
  },
  text: { flexGrow: 1 },
  title: { fontWeight: tokens.fontWeightSemibold },
});

/**
 * Drawn with what the shell already loads (Button, styles), not the engine's MessageBar panel: it shows when code
 * could not be fetched, and it lives in the shell, whose JavaScript budget is tight.
 */
function ChunkFailed({ reason, onRetry }: { reason: ChunkLoadError['reason']; onRetry(): void }) {
  const { t } = useTranslation();
  const s = useStyles();
  return (
    <div role="alert" className={s.panel} data-testid="engine-error">
      <div className={s.text}>
        <div className={s.title}>{t(`chunk.${reason}`, { seconds: CHUNK_LOAD_TIMEOUT_MS / 1000 })}</div>
        {t('chunk.hint')}
      </div>
      <Button onClick={onRetry}>{t('engine.retry')}</Button>
    </div>
  );
}
