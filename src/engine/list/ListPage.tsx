import { Button, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowClockwise20Regular, Grid20Regular, Table20Regular } from '@fluentui/react-icons';
import type { RowSelectionState } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../api/notify';
import { actionVisible } from '../../core/actions';
import { cardColumns, layoutsOf } from '../../core/cardFields';
import { LIST_PAGE_SIZES } from '../../core/constants';
import { defaultListParams, pageToJumpTo, type ListParams } from '../../core/listParams';
import { buildCountRequest, buildListRequest } from '../../core/listRequest';
import type { ActionSchema, Column, ResolvedPage } from '../../core/pageSchema';
import { actionsWidth } from '../../core/rowActionsWidth';
import { nestRows, reorderRanks } from '../../core/treeRows';
import { useSession } from '../../store/session';
import { SearchBar, type SearchApply } from '../../widgets/search/SearchBar';
import { Pager } from '../../widgets/table/Pager';
import { useLabel } from '../../widgets/useLabel';
import { ErrorPanel } from '../ErrorPanel';
import { SchemaBoundary } from '../SchemaBoundary';
import { EnvelopeError, type Row } from '../dataProvider';
import { useDataProvider } from '../dataContext';
import { FormDrawer } from '../form/FormDrawer';
import { useEnums } from '../options';
import { usePreload, usePreviewMode } from '../preload';
import type { RendererProps } from '../registry';
import { useGrants } from '../useGrants';
import { CardGrid } from './CardGrid';
import { Cell } from '../cells';
import { ColumnSettings } from './ColumnSettings';
import { DataTable } from './DataTable';
import { ListTabs } from './ListTabs';
import { RowActions } from './RowActions';
import { useActionRunner } from '../actions/useActionRunner';
import { useColumnPrefs } from './useColumnPrefs';
import { useListLayout } from './useListLayout';
import { useListParams } from './useListParams';

/** Spec §9: requests are debounced 100 ms (typing in the search bar sends one request, not one per key). */
const REQUEST_DEBOUNCE_MS = 100;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  toolbar: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  spacer: { flexGrow: 1 },
  selected: { color: tokens.colorNeutralForeground2 },
  layouts: { display: 'inline-flex', gap: tokens.spacingHorizontalXXS },
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
  const enums = useEnums();
  const schema = page.schema;
  const list = schema.list as NonNullable<ResolvedPage['list']>;
  const resource = page.resource;
  const rowKey = schema.rowKey;
  const items = useMemo(() => schema.search?.items ?? [], [schema.search]);
  const tabs = useMemo(() => list.tabs ?? [], [list.tabs]);
  const sizes = list.pageSizes ?? LIST_PAGE_SIZES;

  const defaults = useMemo<ListParams>(() => defaultListParams({
    pageSize: list.defaultPageSize ?? sizes[0] ?? LIST_PAGE_SIZES[0], sortBy: list.defaultSort ?? {}, tab: tabs[0]?.key ?? '',
  }), [list.defaultPageSize, list.defaultSort, sizes, tabs]);
  const [params, setParams] = useListParams(basePath, defaults, preview || !!preload);

  const [rows, setRows] = useState<Row[]>(preload?.rows ?? []);
  const [total, setTotal] = useState(preload?.total ?? preload?.rows?.length ?? 0);
  const [counts, setCounts] = useState<Record<string, number> | null>(preload?.counts ?? null);
  const [loading, setLoading] = useState(!preload?.rows);
  const [reload, setReload] = useState(0);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [formMode, setFormMode] = useState<FormMode>(null);
  const refresh = useCallback(() => setReload((n) => n + 1), []);
  // Spec §6: the header's show-all-data switch widens hospital-scoped lists; they reload when it changes.
  const showAllData = useSession((st) => st.showAllData);
  const [layout, setLayout] = useListLayout(page.alias, list, preview || !!preload);
  const card = useMemo(() => (list.card ? cardColumns(list.card, list.columns) : null), [list.card, list.columns]);

  const { prefs, save: savePrefs, reset: resetPrefs } = useColumnPrefs(page.alias, basePath, list.columns, preview || !!preload);

  const listRequest = useMemo(() => buildListRequest(params, items, tabs), [params, items, tabs]);
  const countRequest = useMemo(() => (tabs.length ? buildCountRequest(params, items, tabs) : null), [params, items, tabs]);
  const listKey = JSON.stringify(listRequest);
  const countKey = JSON.stringify(countRequest);

  // The first request goes out at once (a menu click should show rows, not wait); later changes are debounced.
  const listSent = useRef(false);
  const countSent = useRef(false);
  useEffect(() => {
    if (preload?.rows || !resource) return;
    let live = true;
    setLoading(true);
    const send = () => {
      dp.getList(resource, listRequest)
        .then((res) => {
          if (!live) return;
          setRows(res.data);
          setTotal(res.total);
          setSelection({});
          const jump = pageToJumpTo(params.page, res.data.length, res.total, params.pageSize);
          if (jump) setParams({ page: jump });
        })
        .catch((e) => {
          if (!live) return;
          // Spec §8: a list call with a message shows it; a failed list shows the error (the client toasts HTTP failures) and empty data.
          if (e instanceof EnvelopeError) notifyError(e.displayText);
          setRows([]);
          setTotal(0);
        })
        .finally(() => live && setLoading(false));
    };
    const timer = listSent.current ? setTimeout(send, REQUEST_DEBOUNCE_MS) : undefined;
    if (!listSent.current) send();
    listSent.current = true;
    return () => { live = false; clearTimeout(timer); };
  }, [listKey, reload, resource, showAllData]); // eslint-disable-line react-hooks/exhaustive-deps -- listKey holds the request by value; the rest is read when it is sent

  useEffect(() => {
    if (preload?.counts || !resource || !countRequest) return;
    let live = true;
    const send = () => {
      dp.getCount(resource, countRequest)
        .then((c) => live && setCounts(c))
        .catch((e) => {
          if (!live) return;
          // Spec §8: a failed count shows the error and clears the counts.
          if (e instanceof EnvelopeError) notifyError(e.displayText);
          setCounts(null);
        });
    };
    const timer = countSent.current ? setTimeout(send, REQUEST_DEBOUNCE_MS) : undefined;
    if (!countSent.current) send();
    countSent.current = true;
    return () => { live = false; clearTimeout(timer); };
  }, [countKey, reload, resource, showAllData]); // eslint-disable-line react-hooks/exhaustive-deps -- countKey holds the request by value; the rest is read when it is sent

  const [actionDialogs, run] = useActionRunner({
    resource: resource ?? { route: '' }, rowKey, basePath, dataProvider: dp, refresh,
    openForm: (mode) => setFormMode(mode),
  });

  const perms = resource?.permissions;
  const rowActions = list.rowActions ?? [];
  const visibleFor = (row: Row) => rowActions.filter((a) => actionVisible(a, row, grants, perms));
  // The widest row's buttons set the actions column's width.
  const actionsColumn = rows.reduce((w, r) => Math.max(w, actionsWidth(visibleFor(r).map((a) => label(a.label)))), 0);
  const toolbar = (list.toolbar ?? []).filter((a) => actionVisible(a, null, grants, perms));
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
  const renderCell = (column: Column, row: Row) => <Cell column={column} row={row} enums={enums} />;
  const renderActions = (row: Row) => <RowActions actions={visibleFor(row)} onRun={(a) => runOn(a, [row])} />;
  const showCards = layout === 'cards' && card;

  return (
    <div className={s.root} data-testid="list-page" data-alias={page.alias}>
      {items.length || schema.search?.keyword ? (
        <SchemaBoundary path="/search"><SearchBar items={items} manual={schema.search?.manual} keyword={schema.search?.keyword} prominent={schema.search?.prominent}
          placeholder={schema.search?.keywordPlaceholder ? label(schema.search.keywordPlaceholder) : undefined}
          values={params.params} search={params.search} filter={params.filter}
          historyKey={page.alias} onApply={apply} /></SchemaBoundary>
      ) : null}
      <div className={s.toolbar}>
        {toolbar.map((a) => (
          <Button key={a.key} appearance={a.appearance === 'primary' ? 'primary' : 'secondary'} data-action={a.key} onClick={() => runOn(a, selectedRows)}>{label(a.label)}</Button>
        ))}
        {batch.map((a) => (
          <Button key={a.key} appearance="secondary" disabled={!selectedRows.length} data-action={a.key} onClick={() => runOn(a, selectedRows)}>{label(a.label)}</Button>
        ))}
        {selectedRows.length ? <span className={s.selected}>{t('table.selected', { count: selectedRows.length })}</span> : null}
        <span className={s.spacer} />
        <Tooltip content={t('table.refresh')} relationship="label">
          <Button icon={<ArrowClockwise20Regular />} appearance="subtle" onClick={refresh} />
        </Tooltip>
        {layoutsOf(list).length > 1 ? (
          <span className={s.layouts} role="group" aria-label={t('table.layout')}>
            {/* Plain buttons with aria-pressed: Fluent's ToggleButton would split out of the login chunk the shell budget counts. */}
            <Tooltip content={t('table.layoutTable')} relationship="label">
              <Button appearance={layout === 'table' ? 'secondary' : 'subtle'} aria-pressed={layout === 'table'} icon={<Table20Regular />}
                onClick={() => setLayout('table')} data-testid="layout-table" />
            </Tooltip>
            <Tooltip content={t('table.layoutCards')} relationship="label">
              <Button appearance={layout === 'cards' ? 'secondary' : 'subtle'} aria-pressed={layout === 'cards'} icon={<Grid20Regular />}
                onClick={() => setLayout('cards')} data-testid="layout-cards" />
            </Tooltip>
          </span>
        ) : null}
        {showCards ? null : <ColumnSettings columns={list.columns} prefs={prefs} onChange={savePrefs} onReset={resetPrefs} />}
      </div>
      {tabs.length ? <SchemaBoundary path="/list/tabs"><ListTabs tabs={tabs} value={params.tab || tabs[0].key} counts={counts} onChange={(tab) => setParams({ tab, page: 1 })} /></SchemaBoundary> : null}
      <SchemaBoundary path={showCards ? '/list/card' : '/list/columns'}>{showCards ? (
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
