import { makeStyles, tokens } from '@fluentui/react-components';
import type { RowSelectionState } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionVisible } from '../../core/actions';
import { cardColumns, layoutsOf } from '../../core/cardFields';
import { LIST_PAGE_SIZES } from '../../core/constants';
import type { ListParams } from '../../core/listParams';
import type { ActionSchema, Column, ResolvedPage } from '../../core/pageSchema';
import { actionsWidth } from '../../core/rowActionsWidth';
import { nestRows, reorderRanks } from '../../core/treeRows';
import { SearchBar, type SearchApply } from '../../widgets/search/SearchBar';
import { Pager } from '../../widgets/table/Pager';
import { useLabel } from '../../widgets/useLabel';
import { ErrorPanel } from '../ErrorPanel';
import { SchemaBoundary } from '../SchemaBoundary';
import type { Row } from '../dataProvider';
import { useDataProvider } from '../dataContext';
import { FormDrawer } from '../form/FormDrawer';
import { useEnums, useEnumsWithRows } from '../options';
import { usePreload, usePreviewMode } from '../preload';
import type { RendererProps } from '../registry';
import { useGrants } from '../useGrants';
import { CardGrid } from './CardGrid';
import { GridView } from './GridView';
import { Cell, useCellContext } from '../cells';
import { ListToolbar } from './ListToolbar';
import { useListData } from './useListData';
import { useWorkPolling } from './useWorkPolling';
import { useLiveRefresh } from './useLiveRefresh';
import { liveSource } from '../liveSources';
import { useChannelLive } from '../../realtime/channel';
import { workPollMs } from '../../core/workUnderWay';
import { listDefaults } from '../../core/listPageState';
import { useRules } from '../rulesApi';
import { DataTable } from './DataTable';
import { ListTabs } from './ListTabs';
import { ListFacet } from './ListFacet';
import { facetValue, withFacet } from '../../core/listFacet';
import { RowActions } from './RowActions';
import { useActionRunner } from '../actions/useActionRunner';
import { useColumnPrefs } from './useColumnPrefs';
import { useListLayout } from './useListLayout';
import { useListParams } from './useListParams';
import { useSession } from '../../store/session';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
});

type FormMode = { kind: 'create' } | { kind: 'edit'; id: string } | null;

/**
 * The schema-driven list page of spec §2: state in the address, search bar and drawer, tabs with
 * counts, the shared table with the user's columns, the pager, and the schema's actions.
 */
export default function ListPage({ page, basePath }: RendererProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  const preload = usePreload();
  const preview = usePreviewMode();
  const dp = useDataProvider();
  const grants = useGrants();
  const schema = page.schema;
  const list = schema.list as NonNullable<ResolvedPage['list']>;
  const enums = useEnumsWithRows(useEnums(), list.columns);
  const cellContext = useCellContext(enums);
  const resource = page.resource;
  const rowKey = schema.rowKey;
  const items = useMemo(() => schema.search?.items ?? [], [schema.search]);
  const tabs = useMemo(() => list.tabs ?? [], [list.tabs]);
  const sizes = list.pageSizes ?? LIST_PAGE_SIZES;

  // The tab it opens on follows the user's roles (a tab's `openFor`).
  const roles = useSession((st) => st.user?.identification);
  const defaults = useMemo<ListParams>(() => listDefaults(list, roles), [list, roles]);
  const [params, setParams] = useListParams(basePath, defaults, preview || !!preload);

  const [reload, setReload] = useState(0);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [formMode, setFormMode] = useState<FormMode>(null);
  // Leaving the page closes its form, as unmounting did before the shell kept list pages (KeptOutlet): a page shown
  // again is its list, not a drawer (or a broken form's error panel) left open.
  useEffect(() => () => setFormMode(null), []);
  const refresh = useCallback(() => setReload((n) => n + 1), []);
  const [layout, setLayout] = useListLayout(page.alias, list, preview || !!preload);
  const card = useMemo(() => (list.card ? cardColumns(list.card, list.columns) : null), [list.card, list.columns]);

  const { prefs, save: savePrefs, reset: resetPrefs } = useColumnPrefs(page.alias, basePath, list.columns, preview || !!preload);

  const [poll, setPoll] = useState(0);
  const repoll = useCallback(() => setPoll((n) => n + 1), []);
  const answered = useRef(() => {});
  const { rows, total, counts, loading, patch } = useListData({
    resource, params, items, tabs, preload, reload, poll, rowKey,
    onJump: (page) => setParams({ page }),
    onRows: () => setSelection({}),
    onAnswer: () => answered.current(),
  });
  // Work under way (a slide converting): its source's pushes move it while the channel is up, else a poll.
  const pushesWork = !!liveSource(list.live)?.carriesWork;
  const channelUp = useChannelLive();
  const work = useWorkPolling(rows, list.columns, repoll, { off: preview || !!preload, everyMs: workPollMs(pushesWork, channelUp) });
  answered.current = work.arm;
  const atWork = useRef(work.atWork);
  atWork.current = work.atWork;
  // Live states (scanners, slide jobs): pushed over the realtime channel, the schema's interval as fallback; not while a
  // form is open. A list of work asks for the channel at once only while work is shown, and catches up on it then.
  useLiveRefresh({
    live: list.live, refreshSeconds: list.refreshSeconds, off: preview || !!preload || !!formMode, refetch: repoll, patch,
    eager: !pushesWork || work.atWork, catchUp: () => !pushesWork || atWork.current,
  });

  const [actionDialogs, run] = useActionRunner({
    resource: resource ?? { route: '' }, rowKey, basePath, dataProvider: dp, refresh,
    openForm: (mode) => setFormMode(mode),
  });

  const perms = resource?.permissions;
  const resolve = useRules();
  const rowActions = list.rowActions ?? [];
  const visibleFor = (row: Row) => rowActions.filter((a) => actionVisible(a, row, grants, perms, resolve));
  // The widest row's buttons set the actions column's width.
  const actionsColumn = rows.reduce((w, r) => Math.max(w, actionsWidth(visibleFor(r).map((a) => label(a.label)))), 0);
  const toolbar = (list.toolbar ?? []).filter((a) => actionVisible(a, null, grants, perms, resolve));
  const batch = (list.batchActions ?? []).filter((a) => actionVisible({ ...a, visibleIf: undefined }, null, grants, perms));
  const selectedRows = rows.filter((r) => selection[String(r[rowKey])]);

  const apply = (next: SearchApply) => setParams({
    page: 1,
    ...(next.params !== undefined ? { params: next.params } : {}),
    ...(next.filter !== undefined ? { filter: next.filter } : {}),
    ...(next.search !== undefined ? { search: next.search } : {}),
  });

  const tableRows = useMemo(() => (list.tree ? nestRows(rows, rowKey) : rows), [rows, list.tree, rowKey]);

  // A drop saves the new ranks of the moved row's siblings through the generic update (PATCH update/{id}).
  const reorder = async (fromKey: string, toKey: string) => {
    const rankField = list.reorder?.rankField ?? 'rank';
    const changes = reorderRanks(tableRows, fromKey, toKey, rankField, rowKey);
    if (!resource || !changes.length) return;
    try {
      for (const c of changes) await dp.update(resource, c.key as string, { [rankField]: c.rank });
    } catch { /* the client already showed the failure */ }
    refresh();
  };

  if (!resource) return <ErrorPanel title={t('engine.noResource', { resource: schema.resource ?? '—' })} />;

  const runOn = (a: ActionSchema, targets: Row[]) => void run(a, targets);
  const renderCell = (column: Column, row: Row) => <Cell column={column} row={row} context={cellContext} />;
  const moreLabel = t('table.moreActions');
  const renderActions = (row: Row) => <RowActions actions={visibleFor(row)} onRun={(a) => runOn(a, [row])} label={label} moreLabel={moreLabel} />;
  const showCards = layout === 'cards' && card;
  const showGrid = layout === 'grid' && list.grid;
  const columnOf = (field: string): Column => list.columns.find((c) => c.field === field) ?? { field, label: field, cell: 'text' };
  // A grid entry opens its row's edit form where the row offers the edit action.
  const openEntry = (row: Row) => {
    const edit = visibleFor(row).find((a) => a.kind === 'edit');
    return edit ? () => runOn(edit, [row]) : undefined;
  };

  return (
    <div className={s.root} data-testid="list-page" data-alias={page.alias}>
      {items.length || schema.search?.keyword ? (
        <SchemaBoundary path="/search"><SearchBar items={items} manual={schema.search?.manual} keyword={schema.search?.keyword} prominent={schema.search?.prominent}
          placeholder={schema.search?.keywordPlaceholder ? label(schema.search.keywordPlaceholder) : undefined}
          values={params.params} search={params.search} filter={params.filter}
          historyKey={page.alias} onApply={apply} /></SchemaBoundary>
      ) : null}
      <ListToolbar toolbar={toolbar} batch={batch} selectedCount={selectedRows.length} onRun={(a) => runOn(a, selectedRows)} onRefresh={refresh}
        layouts={layoutsOf(list)} layout={layout} onLayout={setLayout}
        columns={showCards || showGrid ? undefined : { columns: list.columns, prefs, onChange: savePrefs, onReset: resetPrefs }} />
      {list.facet ? (
        <SchemaBoundary path="/list/facet"><ListFacet facet={list.facet} value={facetValue(params.params, list.facet.field)} reload={reload}
          onChange={(v) => setParams({ params: withFacet(params.params, list.facet!.field, v), page: 1 })} /></SchemaBoundary>
      ) : null}
      {tabs.length ? <SchemaBoundary path="/list/tabs"><ListTabs tabs={tabs} value={params.tab || defaults.tab} counts={counts} onChange={(tab) => setParams({ tab, page: 1 })} /></SchemaBoundary> : null}
      <SchemaBoundary path={showCards ? '/list/card' : showGrid ? '/list/grid' : '/list/columns'}>{showGrid ? (
        <GridView grid={showGrid} rows={rows} rowKey={rowKey} loading={loading} columnOf={columnOf} renderCell={renderCell} onOpen={openEntry} />
      ) : showCards ? (
        <CardGrid card={showCards} rows={rows} rowKey={rowKey} loading={loading} selectable={list.selectable} selection={selection} onSelectionChange={setSelection}
          renderCell={renderCell} actions={actionsColumn ? renderActions : undefined} />
      ) : (
        <DataTable columns={list.columns} prefs={prefs} rows={tableRows} rowKey={rowKey} loading={loading} selectable={list.selectable}
          selection={selection} onSelectionChange={setSelection} sortBy={params.sortBy} onSortChange={(sortBy) => setParams({ sortBy, page: 1 })}
          tree={list.tree} reorder={!!list.reorder} onReorder={reorder}
          renderCell={renderCell}
          actions={actionsColumn ? { width: actionsColumn, render: renderActions } : undefined} />
      )}</SchemaBoundary>
      <Pager page={params.page} pageSize={params.pageSize} total={total} sizes={sizes} onChange={(p, size) => setParams({ page: p, pageSize: size })} />
      {actionDialogs}
      {formMode && schema.form ? (
        <SchemaBoundary path="/form"><FormDrawer open form={schema.form} resource={resource} id={formMode.kind === 'edit' ? formMode.id : undefined} title={label(schema.title ?? schema.alias)}
          onClose={() => setFormMode(null)} onSaved={() => { setFormMode(null); refresh(); }} /></SchemaBoundary>
      ) : null}
    </div>
  );
}
