import { Button, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, makeStyles, tokens } from '@fluentui/react-components';
import { Delete20Regular } from '@fluentui/react-icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DATETIME_FORMAT } from '../../core/dateRanges';

/** The frame both key panels share: a titled section below the page's form. */
export const usePanelStyles = makeStyles({
  root: {
    display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '960px', paddingTop: tokens.spacingVerticalL,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  title: { margin: 0, fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
});

const when = (iso: string | null) => (iso ? dayjs(iso).format(DATETIME_FORMAT) : null);

export interface KeyRow {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
  /** Whose key, when the table lists several users'. */
  owner?: string;
}

/**
 * Security keys as a table, for the user's own panel and the administrators' one: whose (when the rows say), name,
 * when added and last used, and one removing action a row. `testIds` name the table, its rows and the action.
 */
export function KeysTable({ keys, actionLabel, onAction, testIds, caption }: {
  keys: KeyRow[];
  actionLabel: string;
  onAction(key: KeyRow): void;
  testIds: { table: string; row: string; action: string };
  caption: string;
}) {
  const { t } = useTranslation();
  const owners = keys.some((k) => k.owner !== undefined);
  return (
    <Table size="small" aria-label={caption} data-testid={testIds.table}>
      <TableHeader>
        <TableRow>
          {owners ? <TableHeaderCell>{t('securityKey.members.user')}</TableHeaderCell> : null}
          <TableHeaderCell>{t('securityKey.columns.name')}</TableHeaderCell>
          <TableHeaderCell>{t('securityKey.columns.created')}</TableHeaderCell>
          <TableHeaderCell>{t('securityKey.columns.lastUsed')}</TableHeaderCell>
          <TableHeaderCell>{t('securityKey.columns.actions')}</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {keys.map((k) => (
          <TableRow key={k.id} data-testid={testIds.row}>
            {owners ? <TableCell>{k.owner}</TableCell> : null}
            <TableCell>{k.name}</TableCell>
            <TableCell>{when(k.created_at)}</TableCell>
            <TableCell>{when(k.last_used_at) ?? t('securityKey.never')}</TableCell>
            <TableCell>
              <Button size="small" appearance="subtle" icon={<Delete20Regular />} onClick={() => onAction(k)} data-testid={testIds.action}>
                {actionLabel}
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
