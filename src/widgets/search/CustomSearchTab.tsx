import { Button, Dropdown, Input, Option, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { isList, isPair, newCondition, operatorsFor, removeCondition, valueForOperator, type CustomCondition } from '../../core/customSearch';
import type { Combinator, Operator } from '../../core/filters';
import type { SearchField as SearchFieldSchema, SearchWidget } from '../../core/pageSchema';
import { noRules } from '../../core/rules';
import { useRules } from '../../engine/rulesApi';
import { useLabel } from '../useLabel';
import { SearchField } from './SearchField';

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: {
    display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalS, borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorNeutralBackground2,
  },
  line: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', minWidth: 0 },
  grow: { flexGrow: 1, minWidth: 0 },
  small: { minWidth: '96px', width: '96px' },
  operator: { minWidth: '136px', width: '136px' },
});

/** The value input a condition needs for its operator: a pair for between, several for in. */
function valueType(type: SearchWidget, op: Operator): { type: SearchWidget | 'list'; multiple?: boolean } {
  if (isPair(op)) return { type: type === 'date' ? 'daterange' : type === 'daterange' || type === 'datetimerange' ? type : 'numberrange' };
  if (isList(op)) return ['select', 'multiselect', 'boolean'].includes(type) ? { type: 'multiselect', multiple: true } : { type: 'list' };
  if (type === 'numberrange') return { type: 'number' };
  if (type === 'daterange' || type === 'datetimerange') return { type: 'date' };
  if (type === 'multiselect') return { type: 'select', multiple: false };
  return { type };
}

export interface CustomSearchTabProps {
  items: SearchFieldSchema[];
  conditions: CustomCondition[];
  onChange(conditions: CustomCondition[]): void;
}

/**
 * The custom-search tab of spec §5: conditions of field, operator and value joined by and / or /
 * except. Removing the last extra condition resets the first combinator to and.
 */
export function CustomSearchTab({ items, conditions, onChange }: CustomSearchTabProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  // Operators per item type come from the hospital's search-operators rule set (schemas/rules).
  const resolve = useRules() ?? noRules;
  const rows = conditions.length ? conditions : [newCondition()];
  const set = (i: number, patch: Partial<CustomCondition>) => onChange(rows.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const combinators: Combinator[] = ['and', 'or', 'except'];

  return (
    <div className={s.list} data-testid="custom-search">
      {rows.map((c, i) => {
        const item = items.find((it) => it.field === c.field);
        const ops = item ? operatorsFor(item, resolve) : [];
        const field = item ? valueType(item.widget, c.operator) : null;
        const pair = !!item && isPair(c.operator);
        const valueInput = !item || !field ? <Input disabled className={s.grow} aria-label={t('search.value')} placeholder={t('search.value')} /> : field.type === 'list' ? (
          <Input aria-label={t('search.value')} placeholder={t('search.listHint')} style={{ width: '100%' }}
            value={Array.isArray(c.value) ? c.value.join(', ') : ''}
            onChange={(_, d) => set(i, { value: d.value.split(/[,，\s]+/).filter(Boolean).map((v) => (item.widget === 'number' ? Number(v) : v)) })} />
        ) : (
          <SearchField item={item} widget={field.type} multiple={field.multiple} stacked label={t('search.value')} value={c.value} onChange={(v) => set(i, { value: v })} />
        );
        return (
          <div key={i} className={s.row} data-testid="custom-condition">
            <div className={s.line}>
              <Dropdown className={s.small} aria-label={t('search.combinator')} value={t(`search.combinators.${c.condition}`)} selectedOptions={[c.condition]}
                onOptionSelect={(_, d) => d.optionValue && set(i, { condition: d.optionValue as Combinator })}>
                {combinators.filter((k) => i > 0 || k !== 'or').map((k) => <Option key={k} value={k}>{t(`search.combinators.${k}`)}</Option>)}
              </Dropdown>
              <Dropdown className={s.grow} aria-label={t('search.field')} placeholder={t('search.field')} value={item ? label(item.label) : ''}
                selectedOptions={c.field ? [c.field] : []}
                onOptionSelect={(_, d) => {
                  const next = items.find((it) => it.field === d.optionValue);
                  if (!next) return;
                  const nextOps = operatorsFor(next, resolve);
                  const op = nextOps.includes(c.operator) ? c.operator : nextOps[0] ?? c.operator;
                  set(i, { field: next.field, operator: op, value: undefined });
                }}>
                {items.map((it) => <Option key={it.key} value={it.field}>{label(it.label)}</Option>)}
              </Dropdown>
              <Button icon={<Delete20Regular />} appearance="subtle" aria-label={t('search.removeCondition')} disabled={rows.length === 1 && !c.field}
                onClick={() => onChange(rows.length === 1 ? [] : removeCondition(rows, i))} />
            </div>
            <div className={s.line}>
              <Dropdown className={s.operator} aria-label={t('search.operator')} value={t(`search.operators.${c.operator}`)} selectedOptions={[c.operator]} disabled={!item}
                onOptionSelect={(_, d) => {
                  const op = d.optionValue as Operator;
                  set(i, { operator: op, value: valueForOperator(c.value, op) });
                }}>
                {ops.map((op) => <Option key={op} value={op} text={t(`search.operators.${op}`)}>{t(`search.operators.${op}`)}</Option>)}
              </Dropdown>
              {pair ? null : <div className={s.grow}>{valueInput}</div>}
            </div>
            {pair ? valueInput : null}
          </div>
        );
      })}
      <Button icon={<Add20Regular />} appearance="secondary" onClick={() => onChange([...rows, newCondition('and')])}>{t('search.addCondition')}</Button>
    </div>
  );
}
