import { Dropdown, Option, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { resolveLabel } from '../../../core/labels';
import type { ActionSchema, ListSchema } from '../../../core/pageSchema';

const useStyles = makeStyles({
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground3 },
  roles: { minWidth: '320px' },
});

/** A role as the picker offers it: its code (what the page keeps) and its name in both languages. */
export interface RoleChoice { identification: string; name: string; en_name?: string | null }

type Group = 'toolbar' | 'rowActions' | 'batchActions';
const GROUPS: Group[] = ['toolbar', 'rowActions', 'batchActions'];

/**
 * Who sees each action of a list page: none picked, every role (as the base files have it); some picked, only
 * users holding one of them (an administrator sees all). Hiding is not refusing: the permission code an action
 * needs is still what the server checks.
 */
export function ActionsEditor({ list, roles, onChange }: { list: ListSchema; roles: RoleChoice[]; onChange(list: ListSchema): void }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const roleName = (code: string) => {
    const r = roles.find((x) => x.identification === code);
    return r ? (i18n.language === 'en-US' && r.en_name ? r.en_name : r.name) : code;
  };
  const setRoles = (group: Group, key: string, picked: string[]) => onChange({
    ...list,
    [group]: (list[group] ?? []).map((a) => {
      if (a.key !== key) return a;
      const { roles: _old, ...rest } = a;
      return (picked.length ? { ...rest, roles: picked } : rest) as ActionSchema;
    }),
  });
  const rows = GROUPS.flatMap((g) => (list[g] ?? []).map((a) => ({ group: g, action: a })));
  if (!rows.length) return <span data-testid="designer-actions">{t('designer.noActions')}</span>;
  return (
    <Table size="small" data-testid="designer-actions">
      <TableHeader>
        <TableRow>
          <TableHeaderCell>{t('designer.action')}</TableHeaderCell>
          <TableHeaderCell style={{ width: 140 }}>{t('designer.actionPlace')}</TableHeaderCell>
          <TableHeaderCell>{t('designer.actionRoles')}</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map(({ group, action }) => {
          const picked = action.roles ?? [];
          return (
            <TableRow key={`${group}-${action.key}`}>
              <TableCell>{resolveLabel(action.label, i18n.language)} <span className={s.code}>{action.key}</span></TableCell>
              <TableCell>{t(`designer.actionGroup.${group}`)}</TableCell>
              <TableCell>
                <Dropdown className={s.roles} multiselect size="small" aria-label={t('designer.actionRoles')} placeholder={t('designer.everyRole')}
                  value={picked.map(roleName).join(', ')} selectedOptions={picked}
                  onOptionSelect={(_, d) => setRoles(group, action.key, d.selectedOptions)} data-testid={`action-roles-${group}-${action.key}`}>
                  {roles.map((r) => <Option key={r.identification} value={r.identification} text={roleName(r.identification)}>{`${roleName(r.identification)} (${r.identification})`}</Option>)}
                </Dropdown>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
