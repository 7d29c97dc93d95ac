import { Button, Checkbox, Popover, PopoverSurface, PopoverTrigger, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ReOrderDotsVertical16Regular, TableSettings20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { moveColumn, toggleColumn, type ColumnPref } from '../../core/columnPrefs';
import type { Column } from '../../core/pageSchema';
import { useLabel } from '../../widgets/useLabel';

const useStyles = makeStyles({
  surface: { minWidth: '240px', maxHeight: '60vh', overflow: 'auto', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  title: { fontWeight: tokens.fontWeightSemibold, marginBottom: tokens.spacingVerticalXS },
  item: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, borderRadius: tokens.borderRadiusMedium, paddingInline: tokens.spacingHorizontalXS },
  over: { boxShadow: `inset 0 2px 0 ${tokens.colorBrandStroke1}` },
  handle: { cursor: 'grab', display: 'flex', color: tokens.colorNeutralForeground3 },
  footer: { display: 'flex', justifyContent: 'flex-end', marginTop: tokens.spacingVerticalS },
});

/** The column-settings popover: drag a column to reorder it, untick it to hide it. */
export function ColumnSettings({ columns, prefs, onChange, onReset }: { columns: Column[]; prefs: ColumnPref[]; onChange(next: ColumnPref[]): void; onReset(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const byProp = new Map(columns.map((c) => [c.field, c]));

  return (
    <Popover positioning="below-end" trapFocus>
      <PopoverTrigger disableButtonEnhancement>
        <Button icon={<TableSettings20Regular />} appearance="subtle" aria-label={t('table.columns')} title={t('table.columns')} data-testid="column-settings" />
      </PopoverTrigger>
      <PopoverSurface className={s.surface} data-testid="column-settings-panel">
        <div className={s.title}>{t('table.columns')}</div>
        {prefs.map((p) => (
          <div key={p.prop} className={mergeClasses(s.item, over === p.prop && dragged !== p.prop && s.over)} data-column={p.prop}
            draggable onDragStart={(e) => { e.dataTransfer.effectAllowed = 'move'; e.dataTransfer.setData('text/plain', p.prop); setDragged(p.prop); }}
            onDragOver={(e) => { e.preventDefault(); setOver(p.prop); }}
            onDragEnd={() => { setDragged(null); setOver(null); }}
            onDrop={(e) => {
              e.preventDefault();
              const from = dragged ?? e.dataTransfer.getData('text/plain');
              if (from && from !== p.prop) onChange(moveColumn(prefs, from, p.prop));
              setDragged(null);
              setOver(null);
            }}>
            <span className={s.handle} aria-hidden><ReOrderDotsVertical16Regular /></span>
            <Checkbox checked={!p.hidden} label={label(byProp.get(p.prop)?.label ?? p.prop)}
              onChange={(_, d) => onChange(toggleColumn(prefs, p.prop, !d.checked))} />
          </div>
        ))}
        <div className={s.footer}><Button size="small" onClick={onReset}>{t('table.resetColumns')}</Button></div>
      </PopoverSurface>
    </Popover>
  );
}
