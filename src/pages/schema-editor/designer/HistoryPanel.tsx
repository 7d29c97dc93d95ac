import { Button, Select, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, makeStyles, tokens } from '@fluentui/react-components';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATETIME_FORMAT } from '../../../core/dateRanges';
import { changedHunks, lineDiff } from '../../../core/lineDiff';
import type { SchemaVersion } from '../../../engine/schemaApi';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  table: { maxHeight: '220px', overflow: 'auto' },
  current: { fontWeight: tokens.fontWeightSemibold },
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  diff: { margin: 0, fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, maxHeight: '420px', overflow: 'auto', border: `1px solid ${tokens.colorNeutralStroke2}`, padding: tokens.spacingHorizontalS },
  add: { backgroundColor: tokens.colorPaletteGreenBackground2, display: 'block' },
  del: { backgroundColor: tokens.colorPaletteRedBackground2, display: 'block' },
  keep: { display: 'block', color: tokens.colorNeutralForeground3 },
  gap: { display: 'block', color: tokens.colorNeutralForeground4 },
});

export type Version = SchemaVersion & { note?: string | null };

/**
 * One document's history (the page, or the resource's fields): who saved what when and why, a diff of any
 * two versions as the hospital sees them (the effective document, not the patch), and a rollback to any.
 */
export function HistoryPanel({ id, versions, current, effectiveOf, onRollback, onLoad }: {
  id: string; versions: Version[]; current: number; effectiveOf(version: number): unknown; onRollback(version: number): void;
  /** Opens a saved version in the editor (the rule-set and contract editors), to change it before saving it again. */
  onLoad?(version: Version): void;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const numbers = [0, ...versions.map((v) => v.version).sort((a, b) => a - b)];
  const [from, setFrom] = useState(() => numbers[Math.max(0, numbers.indexOf(current) - 1)]);
  const [to, setTo] = useState(current);
  const lines = useMemo(() => changedHunks(lineDiff(JSON.stringify(effectiveOf(from), null, 2), JSON.stringify(effectiveOf(to), null, 2))), [effectiveOf, from, to]);
  const pick = (value: number, set: (v: number) => void, label: string) => (
    <Select size="small" value={String(value)} aria-label={label} onChange={(_, d) => set(Number(d.value))} data-testid={`${id}-diff-${label === t('designer.diffFrom') ? 'from' : 'to'}`}>
      {numbers.map((n) => <option key={n} value={n}>{n === 0 ? t('designer.baseVersion') : t('designer.versionN', { version: n })}</option>)}
    </Select>
  );

  return (
    <div className={s.root} data-testid={`${id}-history`}>
      <div className={s.table}>
        <Table size="small">
          <TableHeader>
            <TableRow>
              <TableHeaderCell style={{ width: 70 }}>{t('schemaEditor.version')}</TableHeaderCell>
              <TableHeaderCell>{t('schemaEditor.savedAt')}</TableHeaderCell>
              <TableHeaderCell>{t('schemaEditor.savedBy')}</TableHeaderCell>
              <TableHeaderCell>{t('schemaEditor.note')}</TableHeaderCell>
              <TableHeaderCell style={{ width: onLoad ? 280 : 200 }} />
            </TableRow>
          </TableHeader>
          <TableBody>
            {[...versions, { version: 0, created_at: '', created_by: null, override: null, note: t('designer.baseVersion') } as Version].map((v) => (
              <TableRow key={v.version} data-version={v.version}>
                <TableCell className={v.version === current ? s.current : undefined}>{v.version}</TableCell>
                <TableCell>{v.created_at && dayjs(v.created_at).isValid() ? dayjs(v.created_at).format(DATETIME_FORMAT) : ''}</TableCell>
                <TableCell>{String(v.created_by ?? '')}</TableCell>
                <TableCell>{v.note ?? ''}</TableCell>
                <TableCell>
                  <Button size="small" appearance="subtle" onClick={() => { setTo(v.version); setFrom(numbers[Math.max(0, numbers.indexOf(v.version) - 1)]); }}>{t('designer.showChange')}</Button>
                  {onLoad && v.version ? <Button size="small" appearance="subtle" onClick={() => onLoad(v)} data-testid={`${id}-load-${v.version}`}>{t('schemaEditor.loadVersion')}</Button> : null}
                  {v.version !== current ? <Button size="small" onClick={() => onRollback(v.version)} data-testid={`${id}-rollback-${v.version}`}>{t('schemaEditor.rollback')}</Button> : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <div className={s.bar}>
        <span>{t('designer.diffFrom')}</span>{pick(from, setFrom, t('designer.diffFrom'))}
        <span>{t('designer.diffTo')}</span>{pick(to, setTo, t('designer.diffTo'))}
      </div>
      <pre className={s.diff} data-testid={`${id}-diff`}>
        {lines.every((l) => l === null || l.op === ' ') ? <span className={s.keep}>{t('designer.noDifference')}</span> : lines.map((l, i) => (l === null
          ? <span key={i} className={s.gap}>⋯</span>
          : <span key={i} className={l.op === '+' ? s.add : l.op === '-' ? s.del : s.keep}>{`${l.op} ${l.text}`}</span>))}
      </pre>
    </div>
  );
}
