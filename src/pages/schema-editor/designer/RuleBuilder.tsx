import { makeStyles, tokens } from '@fluentui/react-components';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryBuilder, formatQuery, type Field, type RuleGroupType } from 'react-querybuilder';
import { parseJsonLogic } from 'react-querybuilder/parseJsonLogic';
import 'react-querybuilder/dist/query-builder.css';
import type { JsonLogic } from '../../../core/pageSchema';

/** A field the builder offers: its name, its label and, for a select, its values. */
export interface RuleField { name: string; label: string; values?: { value: string; label: string }[] }

const useStyles = makeStyles({
  root: {
    '& .queryBuilder': { fontSize: tokens.fontSizeBase200 },
    '& .ruleGroup': { backgroundColor: tokens.colorNeutralBackground3, borderRadius: tokens.borderRadiusMedium },
    '& select, & input': { fontSize: tokens.fontSizeBase200, padding: '2px 4px', borderRadius: tokens.borderRadiusSmall, border: `1px solid ${tokens.colorNeutralStroke1}` },
    '& button': { fontSize: tokens.fontSizeBase200, borderRadius: tokens.borderRadiusSmall, border: `1px solid ${tokens.colorNeutralStroke1}`, backgroundColor: tokens.colorNeutralBackground1, cursor: 'pointer' },
  },
});

/** `{ and: [x] }` is `x`: a one-condition rule reads as the condition. */
const single = (logic: JsonLogic): JsonLogic => {
  const [op] = Object.keys(logic as object);
  const args = (logic as Record<string, unknown>)[op];
  return (op === 'and' || op === 'or') && Array.isArray(args) && args.length === 1 ? (args[0] as JsonLogic) : logic;
};

const EMPTY: RuleGroupType = { combinator: 'and', rules: [] };
const OPERATORS = ['=', '!=', '<', '<=', '>', '>=', 'in', 'notIn', 'null', 'notNull'] as const;

/**
 * A json-logic condition built by pointing instead of typing (react-querybuilder, which parses and exports
 * json-logic): the visibility and required-when rules of form fields. `value` undefined: no condition.
 */
export function RuleBuilder({ fields, value, onChange, testId }: { fields: RuleField[]; value: JsonLogic | undefined; onChange(rule: JsonLogic | undefined): void; testId?: string }) {
  const s = useStyles();
  const { t } = useTranslation();
  const qbFields = useMemo<(Field & { value: string })[]>(() => fields.map((f) => (f.values
    ? { name: f.name, value: f.name, label: f.label, valueEditorType: 'select' as const, values: f.values.map((v) => ({ name: v.value, value: v.value, label: v.label })), defaultValue: f.values[0]?.value }
    : { name: f.name, value: f.name, label: f.label })), [fields]);
  // Parsed once per outside value; the builder's own edits stay in its state (a half-built rule exports nothing).
  const [query, setQuery] = useState<RuleGroupType>(() => (value === undefined || typeof value === 'boolean' ? EMPTY : parseJsonLogic(value as never, { fields: qbFields })));
  const operators = useMemo(() => OPERATORS.map((name) => ({ name, value: name, label: t(`designer.op.${name}`) })), [t]);
  const combinators = useMemo(() => [{ name: 'and', value: 'and', label: t('designer.and') }, { name: 'or', value: 'or', label: t('designer.or') }], [t]);
  const translations = useMemo(() => ({
    addRule: { label: t('designer.addCondition'), title: t('designer.addCondition') },
    addGroup: { label: t('designer.addGroup'), title: t('designer.addGroup') },
    removeRule: { label: '⨯', title: t('designer.remove') },
    removeGroup: { label: '⨯', title: t('designer.remove') },
  }), [t]);

  return (
    <div className={s.root} data-testid={testId}>
      <QueryBuilder fields={qbFields} query={query} operators={operators} combinators={combinators} translations={translations}
        onQueryChange={(q) => {
          setQuery(q);
          const logic = q.rules.length ? formatQuery(q, 'jsonlogic') : false;
          onChange(logic === false || (typeof logic === 'object' && !Object.keys(logic as object).length) ? undefined : single(logic as JsonLogic));
        }} />
    </div>
  );
}
