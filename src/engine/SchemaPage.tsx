import { Spinner } from '@fluentui/react-components';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useParams } from 'react-router-dom';
import { displayText } from '../api/client';
import type { LoadedSchema, ResolvedSchema } from '../core/pageSchema';
import { resolvePage } from '../core/resolvePage';
import PendingPage from '../pages/PendingPage';
import { EditThisPage } from './EditThisPage';
import { ErrorPanel } from './ErrorPanel';
import { loadRenderer, rendererReady, resolveRenderer } from './registry';
import { SchemaBoundary } from './SchemaBoundary';
import { loadSchema, peekSchema, prefetchSchemas } from './schemaApi';
import { SCHEMA_ALIASES } from './pageRegistry';
import { menuRoutes, type MenuEntry } from '../core/menuRules';
import { useSession } from '../store/session';
import { loadRules } from './rulesApi';
import { RulesProvider } from './RulesProvider';
import { useChoices } from './options';
import { listDefaults } from '../core/listPageState';
import { appDataProvider } from './list/listPrefetch';
import { readStoredListQuery } from './list/useListParams';
import { settledListQuery } from '../core/listParams';
import { ChoicesContext } from '../widgets/search/choices';
import { onNavigationIntent } from '../shell/navigationIntent';
import { keepWhenLeft } from '../shell/keptPages';

// Most schema pages are lists: their renderer's chunk and the rule sets load beside the first schema
// request, not after it.
void loadRenderer('list').catch(() => undefined);
void loadRules().catch(() => undefined);

/** The resolved page per loaded schema: a later visit (and the request sent ahead) reuse it instead of resolving again. */
const resolvedPages = new WeakMap<LoadedSchema, ResolvedSchema>();
const resolved = (page: LoadedSchema) => {
  let r = resolvedPages.get(page);
  if (!r) resolvedPages.set(page, (r = resolvePage(page)));
  return r;
};

// From the first schema page on, the schemas of the user's other menu pages (and the enums) load in the
// background, so their first visits ask the server only for rows. Here, not in the shell: the shell's
// code budget is for the login and the frame.
const prefetchMenu = (menus: MenuEntry[]) => {
  // Rendering outside a browser (the page-schema tests render to a string) has nothing to prefetch for.
  if (typeof window === 'undefined') return;
  const aliases = menuRoutes(menus).map((r) => r.alias).filter((a) => SCHEMA_ALIASES.has(a));
  const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
  idle(() => prefetchSchemas(aliases), { timeout: 2000 });
};
prefetchMenu(useSession.getState().menus);
useSession.subscribe((state, previous) => { if (state.menus !== previous.menus) prefetchMenu(state.menus); });

/** A list's first request goes out as soon as its schema is known, before the rules and the renderer's render. */
const sendAhead = (page: LoadedSchema, at: { basePath: string; search: string; record: boolean }) => {
  if (at.record) return;
  // The renderer's code already here (every visit after the first): sent now, in this tick.
  if (rendererReady(page.schema.type)) {
    try { appDataProvider.sendListAhead(resolved(page), at.basePath, at.search); } catch { /* the page's own render meets a bad schema */ }
    return;
  }
  // Only once the renderer's code is here (it loads beside the schema): a page whose chunk fails sends its own
  // request when its retry brings the code, rather than finding an old one.
  void loadRenderer(page.schema.type).then((renderer) => {
    if (renderer) appDataProvider.sendListAhead(resolved(page), at.basePath, at.search);
  }).catch(() => undefined); // a schema that cannot be resolved fails in its own render, inside the page's error boundary
};

// A menu click on a list page whose schema is cached opens it at its settled address (no rewrite after the first
// render) and sends its request in the click's tick, while React draws the page, which takes the answer under way.
onNavigationIntent((uri) => {
  const { pathname, search } = new URL(uri, window.location.origin);
  const basePath = pathname.replace(/\/+$/, '');
  const route = menuRoutes(useSession.getState().menus).find((r) => `/manage/${r.path}` === basePath);
  const page = route && SCHEMA_ALIASES.has(route.alias) ? peekSchema(route.alias) : undefined;
  const list = page?.schema.type === 'list' ? page.schema.list : undefined;
  if (!page || !list) return;
  const settled = `?${settledListQuery(search.replace(/^\?/, ''), readStoredListQuery(basePath), listDefaults(list, useSession.getState().user?.identification))}`;
  sendAhead(page, { basePath, search: settled, record: false });
  return `${basePath}${settled}`;
});

type State = { status: 'loading' } | { status: 'ready'; page: LoadedSchema } | { status: 'missing' } | { status: 'error'; text: string };

/** Renders a page schema through the registry by its type; draws the renderer for an already loaded schema. */
export function SchemaView({ page, recordId, basePath }: { page: LoadedSchema; recordId?: string; basePath: string }) {
  const { t } = useTranslation();
  // A list's record opens in the detail renderer with the same schema (its `detail` section).
  const type = recordId && page.schema.type === 'list' ? 'detail' : page.schema.type;
  const Renderer = resolveRenderer(type);
  if (!Renderer) return <ErrorPanel title={t('engine.unknownType', { type })} text={t('engine.unknownTypeText', { alias: page.alias })} />;
  return (
    <ChoicesContext.Provider value={useChoices}>
      <RulesProvider>
        <SchemaBoundary alias={page.alias} path={`/${type}`}>
          <Suspense fallback={<Spinner data-testid="engine-loading" />}>
            <Renderer page={resolved(page)} recordId={recordId} basePath={basePath} />
          </Suspense>
        </SchemaBoundary>
      </RulesProvider>
    </ChoicesContext.Provider>
  );
}

/**
 * A menu alias rendered from its schema (GET /api/schemas/{alias}). The server answers 404 for an
 * alias without a schema: that is the pending page, not an error. Under a splat route, one more
 * path segment is a record id (`/manage/system/user/5`).
 */
export default function SchemaPage({ alias, name }: { alias: string; name?: string }) {
  const { t } = useTranslation();
  const splat = useParams()['*'];
  const { pathname, search } = useLocation();
  // The menu route's own path: the address without the splat part (relative '.' would include it in v7).
  const basePath = (splat ? pathname.slice(0, pathname.length - splat.length) : pathname).replace(/\/+$/, '');
  // The address the page opened at (kept as it was: the list then rewrites it with its defaults).
  const [opened] = useState(() => ({ basePath, search, record: !!splat }));
  // A schema already in the cache (an earlier visit, or the prefetch) draws the page in the first render.
  const [state, setState] = useState<State>(() => {
    const page = peekSchema(alias);
    if (page) sendAhead(page, opened);
    return page ? { status: 'ready', page } : { status: 'loading' };
  });

  const load = useCallback(() => {
    let live = true;
    // The rule sets load beside the schema, not after it (RulesProvider waits for them).
    void loadRules().catch(() => undefined);
    const cached = peekSchema(alias);
    if (cached) {
      setState((s) => (s.status === 'ready' && s.page === cached ? s : { status: 'ready', page: cached }));
      return () => { live = false; };
    }
    setState({ status: 'loading' });
    loadSchema(alias)
      .then((page) => {
        if (!live) return;
        sendAhead(page, opened);
        setState({ status: 'ready', page });
      })
      .catch((e) => {
        if (!live) return;
        if ((e as { response?: { status?: number } })?.response?.status === 404) setState({ status: 'missing' });
        else setState({ status: 'error', text: displayText(e, t('engine.loadFailed')) });
      });
    return () => { live = false; };
  }, [alias, t, opened]);
  useEffect(load, [load]);
  // A list at its menu address stays drawn when left (the shell's KeptOutlet); forms, details and records do not.
  const keep = state.status === 'ready' && state.page.schema.type === 'list' && !splat;
  useEffect(() => keepWhenLeft(basePath, keep), [basePath, keep]);

  if (splat && splat.includes('/')) return <Navigate to="/404" replace />;
  switch (state.status) {
    case 'loading': return <Spinner data-testid="engine-loading" />;
    case 'missing': return <PendingPage alias={alias} name={name} />;
    case 'error': return <ErrorPanel title={t('engine.loadFailed')} text={state.text} onRetry={load} />;
    default: return <><EditThisPage alias={alias} /><SchemaView page={state.page} recordId={splat || undefined} basePath={basePath} /></>;
  }
}
