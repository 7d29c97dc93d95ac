import { Spinner, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column, GridSchema } from '../../core/pageSchema';
import { GRID_MAX_COLUMNS, gridModel } from '../../core/rosterGrid';
import { useLabel } from '../../widgets/useLabel';
import type { Row } from '../dataProvider';

const useStyles = makeStyles({
  root: { position: 'relative', minHeight: '120px', overflowX: 'auto' },
  table: { borderCollapse: 'collapse', fontSize: tokens.fontSizeBase200 },
  th: {
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`, borderBottom: `1px solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground3, fontWeight: tokens.fontWeightSemibold, whiteSpace: 'nowrap', textAlign: 'center',
  },
  side: { position: 'sticky', left: 0, zIndex: 1, textAlign: 'left', backgroundColor: tokens.colorNeutralBackground2, whiteSpace: 'nowrap' },
  day: { display: 'block', fontWeight: tokens.fontWeightRegular, color: tokens.colorNeutralForeground3 },
  td: {
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalXS}`, borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    borderLeft: `1px solid ${tokens.colorNeutralStroke3}`, minWidth: '56px', textAlign: 'center', verticalAlign: 'top',
  },
  entry: {
    display: 'block', width: '100%', border: 'none', borderRadius: tokens.borderRadiusSmall, padding: `1px ${tokens.spacingHorizontalXXS}`,
    backgroundColor: tokens.colorBrandBackground2, color: tokens.colorNeutralForeground1, font: 'inherit', whiteSpace: 'nowrap',
    marginBottom: '2px',
  },
  open: { cursor: 'pointer', ':hover': { backgroundColor: tokens.colorBrandBackground2Hover } },
  note: { color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalS },
  empty: { textAlign: 'center', color: tokens.colorNeutralForeground3, padding: '32px' },
  overlay: { position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', backgroundColor: tokens.colorNeutralBackgroundAlpha },
});

export interface GridViewProps {
  grid: GridSchema;
  rows: Row[];
  rowKey: string;
  loading?: boolean;
  /** The list's column for a field (its label and cell kind), else plain text. */
  columnOf(field: string): Column;
  renderCell(column: Column, row: Row): ReactNode;
  /** Opens one entry (its edit form), when the page offers that for the row. */
  onOpen?(row: Row): (() => void) | undefined;
}

const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

/**
 * The grid layout of a list page (`list.layout: "grid"`): one field's values down the side (people), another's across
 * (the days of a cycle, every day filled in), a third in each cell (the shift), drawn by the list's own cells. An
 * entry opens the row's edit form when the page has one. The rows are the list's: search, tabs and paging apply.
 */
export function GridView({ grid, rows, rowKey, loading, columnOf, renderCell, onOpen }: GridViewProps) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const { label } = useLabel();
  const model = useMemo(() => gridModel(rows, grid), [rows, grid]);
  const weekday = useMemo(() => new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' }), [i18n.language]);
  const side = columnOf(grid.row);
  const across = columnOf(grid.column);
  const value = columnOf(grid.value);

  return (
    <div className={s.root} data-testid="grid-view">
      {model.lines.length ? (
        <table className={s.table}>
          <thead>
            <tr>
              <th className={mergeClasses(s.th, s.side)} scope="col">{label(side.label)}</th>
              {model.columns.map((c) => (
                <th key={c} className={s.th} scope="col" data-grid-column={c}>
                  {isDay(c) ? <>{c.slice(5)}<span className={s.day}>{weekday.format(new Date(`${c}T00:00:00Z`))}</span></> : renderCell(across, { [grid.column]: c })}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {model.lines.map((line) => (
              <tr key={line.key} data-grid-row={line.key}>
                <th className={mergeClasses(s.th, s.side)} scope="row">{renderCell(side, line.first)}</th>
                {model.columns.map((c) => (
                  <td key={c} className={s.td} data-grid-cell={`${line.key}|${c}`}>
                    {(line.cells[c] ?? []).map((r) => {
                      const open = onOpen?.(r);
                      return open
                        ? <button type="button" key={String(r[rowKey])} className={mergeClasses(s.entry, s.open)} onClick={open}>{renderCell(value, r)}</button>
                        : <span key={String(r[rowKey])} className={s.entry}>{renderCell(value, r)}</span>;
                    })}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {model.clipped ? <div className={s.note}>{t('table.gridClipped', { count: GRID_MAX_COLUMNS })}</div> : null}
      {!loading && !rows.length ? <div className={s.empty}>{t('table.empty')}</div> : null}
      {loading ? <div className={s.overlay}><Spinner size="small" label={t('app.loading')} /></div> : null}
    </div>
  );
}
