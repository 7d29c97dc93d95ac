import { Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text } from '@fluentui/react-components';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionVisible, isGranted } from '../core/actions';
import type { ResolvedSchema } from '../core/pageSchema';
import { resolvePage } from '../core/resolvePage';
import { useLabel } from '../widgets/useLabel';
import { ChoicesContext } from '../widgets/search/choices';
import { useActionRunner } from './actions/useActionRunner';
import { Cell, useCellContext } from './cells';
import { useDataProvider } from './dataContext';
import type { Row } from './dataProvider';
import { RowActions } from './list/RowActions';
import { useChoices, useEnums, useEnumsWithRows } from './options';
import { useRules } from './rulesApi';
import { loadSchema } from './schemaApi';
import { useGrants } from './useGrants';

/** At most this many related rows (a case's follow-ups): the list page itself pages through more. */
const RELATED_ROWS = 100;

/**
 * The rows of a list page's resource that belong to one record (`field` = `value`: a case's follow-ups), drawn with the
 * page's own shown columns and its state-machine steps (`transition` row actions), inside a hand-written page such as
 * the case's. Nothing at all for a user who may not list the resource. Changes go through the same actions and
 * server checks as on the list page; the page's other actions (edit, delete) stay there.
 */
export function RelatedList({ alias, field, value, testId }: { alias: string; field: string; value: number | string; testId?: string }) {
  const [page, setPage] = useState<ResolvedSchema | null>(null);
  useEffect(() => {
    let live = true;
    loadSchema(alias).then((loaded) => live && setPage(resolvePage(loaded)), () => undefined);
    return () => { live = false; };
  }, [alias]);
  const grants = useGrants();
  const list = page?.resource?.permissions?.list;
  if (!page?.resource || !page.schema.list || !list || !isGranted(list, grants)) return null;
  return <ChoicesContext.Provider value={useChoices}><Rows page={page} field={field} value={value} testId={testId ?? `related-${alias}`} /></ChoicesContext.Provider>;
}

function Rows({ page, field, value, testId }: { page: ResolvedSchema; field: string; value: number | string; testId: string }) {
  const { t } = useTranslation();
  const { label } = useLabel();
  const dp = useDataProvider();
  const grants = useGrants();
  const resolve = useRules();
  const resource = page.resource!;
  const list = page.schema.list!;
  const columns = useMemo(() => list.columns.filter((c) => !c.hidden), [list.columns]);
  const context = useCellContext(useEnumsWithRows(useEnums(), columns));
  const [rows, setRows] = useState<Row[] | null>(null);
  const [reload, setReload] = useState(0);
  const refresh = useCallback(() => setReload((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    dp.getList(resource, { pagination: { current: 1, pageSize: RELATED_ROWS }, equals: { [field]: value } }, { silent: true })
      .then((r) => live && setRows(r.data), () => live && setRows([]));
    return () => { live = false; };
  }, [dp, resource, field, value, reload]);
  const [dialogs, run] = useActionRunner({ resource, rowKey: page.schema.rowKey, basePath: '', dataProvider: dp, refresh, openForm: () => undefined });
  const steps = (list.rowActions ?? []).filter((a) => a.kind === 'transition');
  const open = (row: Row) => steps.filter((a) => actionVisible(a, row, grants, resource.permissions, resolve));

  if (!rows) return null;
  if (!rows.length) return <Text data-testid={testId}>{t('engine.relatedNone')}</Text>;
  return (
    <>
      <Table size="small" data-testid={testId}>
        <TableHeader>
          <TableRow>
            {columns.map((c) => <TableHeaderCell key={c.field}>{label(c.label)}</TableHeaderCell>)}
            {steps.length ? <TableHeaderCell>{t('table.actions')}</TableHeaderCell> : null}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={String(r[page.schema.rowKey])}>
              {columns.map((c) => <TableCell key={c.field}><Cell column={c} row={r} context={context} /></TableCell>)}
              {steps.length ? <TableCell><RowActions actions={open(r)} onRun={(a) => void run(a, [r])} label={label} moreLabel={t('table.moreActions')} /></TableCell> : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {dialogs}
    </>
  );
}
