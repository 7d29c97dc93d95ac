import { Button, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowClockwise20Regular, CalendarLtr20Regular, Grid20Regular, Table20Regular } from '@fluentui/react-icons';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { ColumnPref } from '../../core/columnPrefs';
import type { ActionSchema, Column, ListLayout } from '../../core/pageSchema';
import { useLabel } from '../../widgets/useLabel';
import { ColumnSettings } from './ColumnSettings';

const useStyles = makeStyles({
  toolbar: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  spacer: { flexGrow: 1 },
  selected: { color: tokens.colorNeutralForeground2 },
  layouts: { display: 'inline-flex', gap: tokens.spacingHorizontalXXS },
});

const LAYOUT_ICONS: Record<ListLayout, ReactElement> = { table: <Table20Regular />, cards: <Grid20Regular />, grid: <CalendarLtr20Regular /> };
const LAYOUT_WORDS: Record<ListLayout, string> = { table: 'table.layoutTable', cards: 'table.layoutCards', grid: 'table.layoutGrid' };

export interface ListToolbarProps {
  toolbar: ActionSchema[];
  batch: ActionSchema[];
  selectedCount: number;
  onRun(action: ActionSchema): void;
  onRefresh(): void;
  /** The layouts offered; a switch shows when there are two. */
  layouts: ListLayout[];
  layout: ListLayout;
  onLayout(layout: ListLayout): void;
  /** Column settings, for the table layout. */
  columns?: { columns: Column[]; prefs: ColumnPref[]; onChange(next: ColumnPref[]): void; onReset(): void };
}

/** The bar above a list: the schema's toolbar and batch actions, the selection count, refresh, layout and column settings. */
export function ListToolbar({ toolbar, batch, selectedCount, onRun, onRefresh, layouts, layout, onLayout, columns }: ListToolbarProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  return (
    <div className={s.toolbar}>
      {toolbar.map((a) => (
        <Button key={a.key} appearance={a.appearance === 'primary' ? 'primary' : 'secondary'} data-action={a.key} onClick={() => onRun(a)}>{label(a.label)}</Button>
      ))}
      {batch.map((a) => (
        <Button key={a.key} appearance="secondary" disabled={!selectedCount} data-action={a.key} onClick={() => onRun(a)}>{label(a.label)}</Button>
      ))}
      {selectedCount ? <span className={s.selected}>{t('table.selected', { count: selectedCount })}</span> : null}
      <span className={s.spacer} />
      <Tooltip content={t('table.refresh')} relationship="label">
        <Button icon={<ArrowClockwise20Regular />} appearance="subtle" onClick={onRefresh} />
      </Tooltip>
      {layouts.length > 1 ? (
        <span className={s.layouts} role="group" aria-label={t('table.layout')}>
          {/* Plain buttons with aria-pressed: Fluent's ToggleButton would split out of the login chunk the shell budget counts. */}
          {layouts.map((l) => (
            <Tooltip key={l} content={t(LAYOUT_WORDS[l])} relationship="label">
              <Button appearance={layout === l ? 'secondary' : 'subtle'} aria-pressed={layout === l} icon={LAYOUT_ICONS[l]}
                onClick={() => onLayout(l)} data-testid={`layout-${l}`} />
            </Tooltip>
          ))}
        </span>
      ) : null}
      {columns ? <ColumnSettings {...columns} /> : null}
    </div>
  );
}
