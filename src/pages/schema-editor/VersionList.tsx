import { Button, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, makeStyles, tokens } from '@fluentui/react-components';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DATETIME_FORMAT } from '../../core/dateRanges';
import type { SchemaVersion } from '../../engine/schemaApi';

const useStyles = makeStyles({
  wrap: { maxHeight: '260px', overflow: 'auto' },
  current: { fontWeight: tokens.fontWeightSemibold },
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS },
});

/** The hospital's override versions, newest first: load one into the editor, or make it current again. */
export function VersionList({ versions, current, onLoad, onRollback }: {
  versions: (SchemaVersion & { note?: string | null })[];
  current: number;
  onLoad(v: SchemaVersion): void;
  onRollback(version: number): void;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  return (
    <div className={s.wrap} data-testid="schema-versions">
      <Table size="small">
        <TableHeader>
          <TableRow>
            <TableHeaderCell style={{ width: 70 }}>{t('schemaEditor.version')}</TableHeaderCell>
            <TableHeaderCell>{t('schemaEditor.savedAt')}</TableHeaderCell>
            <TableHeaderCell>{t('schemaEditor.savedBy')}</TableHeaderCell>
            <TableHeaderCell>{t('schemaEditor.note')}</TableHeaderCell>
            <TableHeaderCell style={{ width: 190 }} />
          </TableRow>
        </TableHeader>
        <TableBody>
          <TableRow>
            <TableCell className={current === 0 ? s.current : undefined}>0</TableCell>
            <TableCell colSpan={3}>{t('schemaEditor.baseVersion')}</TableCell>
            <TableCell>
              {current !== 0 ? <Button size="small" onClick={() => onRollback(0)}>{t('schemaEditor.rollback')}</Button> : null}
            </TableCell>
          </TableRow>
          {versions.map((v) => (
            <TableRow key={v.version} data-version={v.version}>
              <TableCell className={v.version === current ? s.current : undefined}>{v.version}</TableCell>
              <TableCell>{dayjs(v.created_at).isValid() ? dayjs(v.created_at).format(DATETIME_FORMAT) : v.created_at}</TableCell>
              <TableCell>{String(v.created_by ?? '')}</TableCell>
              <TableCell>{v.note ?? ''}</TableCell>
              <TableCell>
                <span className={s.actions}>
                  <Button size="small" appearance="subtle" onClick={() => onLoad(v)}>{t('schemaEditor.loadVersion')}</Button>
                  {v.version !== current ? <Button size="small" onClick={() => onRollback(v.version)}>{t('schemaEditor.rollback')}</Button> : null}
                </span>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
