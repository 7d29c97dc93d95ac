import {
  Button, Checkbox, Spinner, Table, TableBody, TableHeader, TableHeaderCell, TableRow, makeStyles, mergeClasses, tokens,
} from '@fluentui/react-components';
import {
  ArrowSortDown16Regular, ArrowSortUp16Regular, ChevronDown16Regular, ChevronRight16Regular, ReOrderDotsVertical16Regular,
  TextCollapse20Regular, TextExpand20Regular,
} from '@fluentui/react-icons';
import {
  getCoreRowModel, getExpandedRowModel, useReactTable, type ColumnDef, type ExpandedState, type Row as TRow, type RowSelectionState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ColumnPref } from '../../core/columnPrefs';
import type { Column } from '../../core/pageSchema';
import { useLabel } from '../../widgets/useLabel';
import type { Row } from '../dataProvider';
import { useRowDrag } from './useRowDrag';
import { useRowSelection } from './useRowSelection';
import { BodyCell, BodyRow } from './bodyParts';

/** Spec §9: virtual scroll above 20 rows; row height 38; minimum column width 80; collapse-all locks 500 ms. */
export const VIRTUAL_THRESHOLD = 20;
export const ROW_HEIGHT = 38;
export const MIN_COLUMN_WIDTH = 80;
/** A column's width when the schema gives none, by what it usually holds. */
const WIDTH_BY_TYPE: Record<string, number> = { number: 90, boolean: 80, enum: 100, tag: 100, date: 120, datetime: 170, filesize: 100, image: 90, tags: 200 };
const defaultWidth = (c: Column) => WIDTH_BY_TYPE[c.cell] ?? 150;
const COLLAPSE_LOCK_MS = 500;
const SELECT_WIDTH = 44;
const HANDLE_WIDTH = 36;

const useStyles = makeStyles({
  scroller: { position: 'relative', overflow: 'auto', maxHeight: 'calc(100vh - 300px)', minHeight: '120px', border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorNeutralBackground1 },
  table: { tableLayout: 'fixed' },
  head: { position: 'sticky', top: 0, zIndex: 2, backgroundColor: tokens.colorNeutralBackground2 },
  headCell: { position: 'relative', fontWeight: tokens.fontWeightSemibold, backgroundColor: tokens.colorNeutralBackground2 },
  sortable: { cursor: 'pointer', userSelect: 'none' },
  row: { height: `${ROW_HEIGHT}px` },
  cell: { height: `${ROW_HEIGHT}px`, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' },
  cellInner: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis', minWidth: 0 },
  pinned: { position: 'sticky', zIndex: 1, backgroundColor: tokens.colorNeutralBackground1 },
  pinnedHead: { position: 'sticky', zIndex: 3, backgroundColor: tokens.colorNeutralBackground2 },
  selected: { backgroundColor: tokens.colorBrandBackground2 },
  /** The edge between frozen columns and the ones scrolling under them. */
  // Inset shadows, not borders: a sticky cell's border stays behind in a collapsed table.
  edgeLeft: { boxShadow: `inset -1px 0 0 ${tokens.colorNeutralStroke1}, 4px 0 6px -4px ${tokens.colorNeutralShadowKey}` },
  edgeRight: { boxShadow: `inset 1px 0 0 ${tokens.colorNeutralStroke1}, -4px 0 6px -4px ${tokens.colorNeutralShadowKey}` },
  resizer: {
    position: 'absolute', right: 0, top: 0, height: '100%', width: '6px', cursor: 'col-resize', userSelect: 'none', touchAction: 'none',
    ':hover': { backgroundColor: tokens.colorBrandStroke1 },
  },
  handle: { cursor: 'grab', color: tokens.colorNeutralForeground3 },
  dropTarget: { boxShadow: `inset 0 2px 0 ${tokens.colorBrandStroke1}` },
  empty: { textAlign: 'center', color: tokens.colorNeutralForeground3, height: '80px' },
  overlay: { position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', backgroundColor: tokens.colorNeutralBackgroundAlpha, zIndex: 4 },
  box: { position: 'absolute', border: `1px dashed ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2, opacity: 0.5, pointerEvents: 'none', zIndex: 4 },
  expander: { minWidth: '20px', width: '20px', height: '20px', padding: 0 },
});

/** What every layout of a list page (table, cards) is given: the rows, their selection and how a cell looks. */
export interface RowsViewProps {
  rows: Row[];
  rowKey: string;
  loading?: boolean;
  selectable?: boolean;
  selection: RowSelectionState;
  onSelectionChange(next: RowSelectionState): void;
  renderCell(column: Column, row: Row): ReactNode;
}

export interface DataTableProps extends RowsViewProps {
  columns: Column[];
  /** The user's order and visibility (every column, hidden ones included). */
  prefs: ColumnPref[];
  sortBy: Record<string, 'asc' | 'desc'>;
  onSortChange(next: Record<string, 'asc' | 'desc'>): void;
  tree?: boolean;
  reorder?: boolean;
  onReorder?(fromKey: string, toKey: string): void;
  /** The actions column, pinned right. */
  actions?: { width: number; render(row: Row): ReactNode };
}

/**
 * The shared table of spec §2: TanStack Table holds the state (visibility, order, sizing, selection,
 * expansion), react-virtual renders only the visible rows above 20, and Fluent's Table primitives draw
 * it. Selection: checkboxes, shift-click ranges, ctrl-drag boxes; rows drag to reorder when asked;
 * tree rows expand and collapse, all at once from the header.
 */
export function DataTable(props: DataTableProps) {
  const { columns, prefs, rows, rowKey, loading, selectable, selection, onSelectionChange, sortBy, onSortChange, tree, reorder, onReorder, renderCell, actions } = props;
  const s = useStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  const scroller = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  const [expanded, setExpanded] = useState<ExpandedState>({});
  const [collapseLocked, setCollapseLocked] = useState(false);

  const defs = useMemo<ColumnDef<Row>[]>(() => columns.map((c) => ({
    id: c.field,
    accessorFn: (r: Row) => r[c.field],
    header: () => label(c.label),
    size: Math.max(MIN_COLUMN_WIDTH, c.width ?? defaultWidth(c)),
    minSize: MIN_COLUMN_WIDTH,
    meta: c,
  })), [columns, label]);

  const columnOrder = useMemo(() => prefs.map((p) => p.prop), [prefs]);
  const columnVisibility = useMemo(() => Object.fromEntries(prefs.map((p) => [p.prop, !p.hidden])), [prefs]);

  const table = useReactTable<Row>({
    data: rows,
    columns: defs,
    state: { rowSelection: selection, expanded, columnOrder, columnVisibility },
    getRowId: (r, i, parent) => (r[rowKey] !== undefined && r[rowKey] !== null ? String(r[rowKey]) : parent ? `${parent.id}.${i}` : String(i)),
    getCoreRowModel: getCoreRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
    getSubRows: tree ? (r) => (Array.isArray(r.children) ? (r.children as Row[]) : undefined) : undefined,
    onExpandedChange: setExpanded,
    // A refresh (after a reorder, an edit) keeps the open branches open.
    autoResetExpanded: false,
    enableRowSelection: !!selectable,
    manualSorting: true,
    columnResizeMode: 'onChange',
  });

  const visibleRows = table.getRowModel().rows;
  const keys = useMemo(() => visibleRows.map((r) => r.id), [visibleRows]);
  const virtual = visibleRows.length > VIRTUAL_THRESHOLD;
  const virtualizer = useVirtualizer({
    count: visibleRows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    enabled: virtual,
    initialRect: { width: 1200, height: 600 },
  });
  const items = virtual ? virtualizer.getVirtualItems() : [];
  const padTop = virtual && items.length ? items[0].start : 0;
  const padBottom = virtual && items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const shown: TRow<Row>[] = virtual ? items.map((v) => visibleRows[v.index]).filter(Boolean) : visibleRows;

  const leafColumns = table.getVisibleLeafColumns();
  const lead = (selectable ? SELECT_WIDTH : 0) + (reorder ? HANDLE_WIDTH : 0);
  const pinOffsets = useMemo(() => {
    const out: Record<string, number> = {};
    let left = lead;
    for (const col of leafColumns) {
      const meta = col.columnDef.meta as Column;
      if (!meta.pinned) break;
      out[col.id] = left;
      left += col.getSize();
    }
    return out;
  }, [leafColumns, lead]);
  const totalWidth = lead + leafColumns.reduce((n, c) => n + c.getSize(), 0) + (actions?.width ?? 0);

  const { allSelected, someSelected, toggleRow, toggleAll: toggleAllSelected, box, boxHandlers } = useRowSelection({ keys, selection, onSelectionChange, selectable, body });
  const drag = useRowDrag(!!reorder, onReorder);

  const sortClick = (c: Column) => {
    if (!c.sortable) return;
    const dir = sortBy[c.field];
    onSortChange(dir === 'asc' ? { [c.field]: 'desc' } : dir === 'desc' ? {} : { [c.field]: 'asc' });
  };

  const toggleAll = () => {
    if (collapseLocked) return;
    setCollapseLocked(true);
    setTimeout(() => setCollapseLocked(false), COLLAPSE_LOCK_MS);
    table.toggleAllRowsExpanded(!table.getIsSomeRowsExpanded());
  };

  const lastPinned = Object.keys(pinOffsets).at(-1);
  const pinnedStyle = (id: string, head: boolean): { className?: string; style?: CSSProperties } =>
    pinOffsets[id] !== undefined ? { className: mergeClasses(head ? s.pinnedHead : s.pinned, id === lastPinned && s.edgeLeft), style: { left: pinOffsets[id] } } : {};
  const width = (w: number): CSSProperties => ({ width: w, minWidth: w, maxWidth: w });
  // Looked up once per draw, not once per row.
  const words = { selectRow: t('table.selectRow'), drag: t('table.dragToReorder') };

  return (
    <div ref={scroller} className={s.scroller} data-testid="data-table" onMouseMove={boxHandlers.onMouseMove} onMouseUp={boxHandlers.end} onMouseLeave={boxHandlers.end}>
      <Table className={s.table} size="small" style={{ width: '100%', minWidth: totalWidth }} aria-rowcount={visibleRows.length}>
        <TableHeader className={s.head}>
          <TableRow>
            {reorder ? <TableHeaderCell className={mergeClasses(s.headCell, s.pinnedHead)} style={{ ...width(HANDLE_WIDTH), left: 0 }} aria-label={t('table.reorder')} /> : null}
            {selectable ? (
              <TableHeaderCell className={mergeClasses(s.headCell, s.pinnedHead)} style={{ ...width(SELECT_WIDTH), left: reorder ? HANDLE_WIDTH : 0 }}>
                <Checkbox aria-label={t('table.selectAll')} checked={allSelected ? true : someSelected ? 'mixed' : false}
                  onChange={toggleAllSelected} />
              </TableHeaderCell>
            ) : null}
            {table.getHeaderGroups()[0]?.headers.map((h, i) => {
              const c = h.column.columnDef.meta as Column;
              const dir = sortBy[c.field];
              const pin = pinnedStyle(h.column.id, true);
              return (
                <TableHeaderCell key={h.id} className={mergeClasses(s.headCell, c.sortable && s.sortable, pin.className)} style={{ ...width(h.getSize()), ...pin.style }}
                  aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined} data-column={c.field}
                  onClick={() => sortClick(c)}>
                  <span className={s.cellInner}>
                    {tree && i === 0 ? (
                      <Button className={s.expander} appearance="subtle" size="small" disabled={collapseLocked}
                        icon={table.getIsSomeRowsExpanded() ? <TextCollapse20Regular /> : <TextExpand20Regular />}
                        aria-label={table.getIsSomeRowsExpanded() ? t('table.collapseAll') : t('table.expandAll')}
                        title={table.getIsSomeRowsExpanded() ? t('table.collapseAll') : t('table.expandAll')}
                        onClick={(e) => { e.stopPropagation(); toggleAll(); }} />
                    ) : null}
                    {label(c.label)}
                    {dir === 'asc' ? <ArrowSortUp16Regular /> : dir === 'desc' ? <ArrowSortDown16Regular /> : null}
                  </span>
                  <div className={s.resizer} onMouseDown={h.getResizeHandler()} onTouchStart={h.getResizeHandler()} onClick={(e) => e.stopPropagation()} aria-hidden />
                </TableHeaderCell>
              );
            })}
            {actions ? <TableHeaderCell className={mergeClasses(s.headCell, s.pinnedHead, s.edgeRight)} style={{ ...width(actions.width), right: 0 }}>{t('table.actions')}</TableHeaderCell> : null}
          </TableRow>
        </TableHeader>
        <TableBody ref={body} onMouseDown={boxHandlers.onMouseDown}>
          {padTop > 0 ? <tr style={{ height: padTop }} aria-hidden /> : null}
          {shown.map((row) => {
            const selected = !!selection[row.id];
            return (
              <BodyRow key={row.id} className={mergeClasses(s.row, selected && s.selected, drag.overKey === row.id && s.dropTarget)} aria-selected={selectable ? selected : undefined}
                data-row-key={row.id} {...drag.target(row.id)}>
                {reorder ? (
                  <BodyCell className={mergeClasses(s.cell, s.pinned)} style={{ ...width(HANDLE_WIDTH), left: 0 }}>
                    <span className={s.handle} aria-label={words.drag} title={words.drag} {...drag.handle(row.id)}>
                      <ReOrderDotsVertical16Regular />
                    </span>
                  </BodyCell>
                ) : null}
                {selectable ? (
                  <BodyCell className={mergeClasses(s.cell, s.pinned)} style={{ ...width(SELECT_WIDTH), left: reorder ? HANDLE_WIDTH : 0 }}>
                    <Checkbox checked={selected} aria-label={words.selectRow}
                      onClick={(e) => { e.preventDefault(); toggleRow(row.id, e); }} />
                  </BodyCell>
                ) : null}
                {row.getVisibleCells().map((cell, i) => {
                  const c = cell.column.columnDef.meta as Column;
                  const pin = pinnedStyle(cell.column.id, false);
                  return (
                    <BodyCell key={cell.id} className={mergeClasses(s.cell, pin.className, selected && pin.className && s.selected)} style={{ ...width(cell.column.getSize()), ...pin.style }} data-column={c.field}>
                      <span className={s.cellInner} style={tree && i === 0 ? { paddingLeft: row.depth * 20 } : undefined}>
                        {tree && i === 0 ? (
                          row.getCanExpand() ? (
                            <Button className={s.expander} appearance="subtle" size="small" aria-expanded={row.getIsExpanded()}
                              aria-label={row.getIsExpanded() ? t('table.collapse') : t('table.expand')}
                              icon={row.getIsExpanded() ? <ChevronDown16Regular /> : <ChevronRight16Regular />} onClick={row.getToggleExpandedHandler()} />
                          ) : <span style={{ width: 20, display: 'inline-block' }} />
                        ) : null}
                        {renderCell(c, row.original)}
                      </span>
                    </BodyCell>
                  );
                })}
                {actions ? <BodyCell className={mergeClasses(s.cell, s.pinned, s.edgeRight)} style={{ ...width(actions.width), right: 0 }}>{actions.render(row.original)}</BodyCell> : null}
              </BodyRow>
            );
          })}
          {padBottom > 0 ? <tr style={{ height: padBottom }} aria-hidden /> : null}
          {!loading && !visibleRows.length ? (
            <BodyRow><BodyCell className={s.empty} colSpan={leafColumns.length + (selectable ? 1 : 0) + (reorder ? 1 : 0) + (actions ? 1 : 0)}>{t('table.empty')}</BodyCell></BodyRow>
          ) : null}
        </TableBody>
      </Table>
      {box ? <div className={s.box} style={{ top: (box.top) + Math.min(box.y0, box.y1), height: Math.abs(box.y1 - box.y0), left: 0, right: 0 }} /> : null}
      {loading ? <div className={s.overlay}><Spinner size="small" label={t('app.loading')} /></div> : null}
    </div>
  );
}
