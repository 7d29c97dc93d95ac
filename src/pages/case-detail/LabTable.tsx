import { Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface LabColumn<T> { key: string; label: string; render(row: T): ReactNode }

/** A small read-only table of the case detail page (specimens, blocks, slides, orders, timeline). */
export function LabTable<T extends { id: number }>({ rows, columns, testId }: { rows: T[]; columns: LabColumn<T>[]; testId: string }) {
  const { t } = useTranslation();
  if (!rows.length) return <Text data-testid={testId}>{t('lab.detail.none')}</Text>;
  return (
    <Table size="small" data-testid={testId}>
      <TableHeader>
        <TableRow>{columns.map((c) => <TableHeaderCell key={c.key}>{c.label}</TableHeaderCell>)}</TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((r) => <TableRow key={r.id}>{columns.map((c) => <TableCell key={c.key}>{c.render(r)}</TableCell>)}</TableRow>)}
      </TableBody>
    </Table>
  );
}
