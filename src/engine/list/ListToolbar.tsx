import { Button, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowClockwise20Regular, Grid20Regular, Table20Regular } from '@fluentui/react-icons';
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
          <Tooltip content={t('table.layoutTable')} relationship="label">
            <Button appearance={layout === 'table' ? 'secondary' : 'subtle'} aria-pressed={layout === 'table'} icon={<Table20Regular />}
              onClick={() => onLayout('table')} data-testid="layout-table" />
          </Tooltip>
          <Tooltip content={t('table.layoutCards')} relationship="label">
            <Button appearance={layout === 'cards' ? 'secondary' : 'subtle'} aria-pressed={layout === 'cards'} icon={<Grid20Regular />}
              onClick={() => onLayout('cards')} data-testid="layout-cards" />
          </Tooltip>
        </span>
      ) : null}
      {columns ? <ColumnSettings {...columns} /> : null}
    </div>
  );
}
