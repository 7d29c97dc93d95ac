import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryBuilder, defaultRuleProcessorJsonLogic, formatQuery, type Field, type RuleGroupType, type RuleType, type ValueProcessorOptions } from 'react-querybuilder';
import { parseJsonLogic } from 'react-querybuilder/parseJsonLogic';
import 'react-querybuilder/dist/query-builder.css';
import type { JsonLogic } from '../../../core/pageSchema';
import { useBuilderTranslations } from './builderTranslations';
import { useBuilderStyles } from './builderStyles';

/** A field the builder offers: its name, its label and, for a select, its values; a `numeric` one is compared as a number. */
export interface RuleField { name: string; label: string; values?: { value: string; label: string }[]; numeric?: boolean }

/** `{ and: [x] }` is `x`: a one-condition rule reads as the condition. */
const single = (logic: JsonLogic): JsonLogic => {
  const [op] = Object.keys(logic as object);
  const args = (logic as Record<string, unknown>)[op];
  return (op === 'and' || op === 'or') && Array.isArray(args) && args.length === 1 ? (args[0] as JsonLogic) : logic;
};

const EMPTY: RuleGroupType = { combinator: 'and', rules: [] };
const OPERATORS = ['=', '!=', '<', '<=', '>', '>=', 'in', 'notIn', 'contains', 'null', 'notNull', 'truthy'] as const;
/** The field under which a reference to a named rule (`{ "rule": "<set>.<name>" }`) is a condition of its own. */
export const RULE_REF = '$rule';

/** json-logic the builder has no operator for, read as conditions: a reference, and a bare `{ var }` (the value is set). */
const parseOperations = {
  rule: (name: unknown) => ({ field: RULE_REF, operator: '=', value: name }),
  var: (v: unknown) => ({ field: String(Array.isArray(v) ? v[0] : v), operator: 'truthy', value: '' }),
};
/** …and written back as they were read. */
const ruleProcessor = (rule: RuleType, options?: ValueProcessorOptions) => (rule.field === RULE_REF ? { rule: rule.value }
  : rule.operator === 'truthy' ? { var: rule.field } : defaultRuleProcessorJsonLogic(rule, options));

const toLogic = (q: RuleGroupType): JsonLogic | undefined => {
  const logic = q.rules.length ? formatQuery(q, { format: 'jsonlogic', ruleProcessor }) : false;
  return logic === false || (typeof logic === 'object' && !Object.keys(logic as object).length) ? undefined : single(logic as JsonLogic);
};
const parse = (value: JsonLogic, fields?: (Field & { value: string })[]): RuleGroupType =>
  parseJsonLogic(value as never, fields ? { fields, jsonLogicOperations: parseOperations as never } : { jsonLogicOperations: parseOperations as never });

/** Whether the builder shows `logic` as it is: read and written back, it is the same json-logic (otherwise it is edited as JSON). */
export function builderReads(logic: unknown): boolean {
  if (!logic || typeof logic !== 'object' || Array.isArray(logic)) return false;
  try {
    return JSON.stringify(toLogic(parse(logic as JsonLogic))) === JSON.stringify(logic);
  } catch {
    return false;
  }
}

/**
 * A json-logic condition built by pointing instead of typing (react-querybuilder, which parses and exports
 * json-logic): the visibility and required-when rules of form fields and the conditions of the rule sets.
 * `value` undefined: no condition. `anyField`: keep conditions on names the field list does not offer (a rule
 * set reads data beyond any one resource).
 */
export function RuleBuilder({ fields, value, onChange, testId, anyField }: { fields: RuleField[]; value: JsonLogic | undefined; onChange(rule: JsonLogic | undefined): void; testId?: string; anyField?: boolean }) {
  const s = useBuilderStyles();
  const { t } = useTranslation();
  const qbFields = useMemo<(Field & { value: string })[]>(() => fields.map((f) => (f.values
    ? { name: f.name, value: f.name, label: f.label, valueEditorType: 'select' as const, values: f.values.map((v) => ({ name: v.value, value: v.value, label: v.label })), defaultValue: f.values[0]?.value }
    : { name: f.name, value: f.name, label: f.label, ...(f.numeric ? { inputType: 'number' } : {}) })), [fields]);
  // Parsed once per outside value; the builder's own edits stay in its state (a half-built rule exports nothing).
  const [query, setQuery] = useState<RuleGroupType>(() => (value === undefined || typeof value === 'boolean' ? EMPTY : parse(value, anyField ? undefined : qbFields)));
  const operators = useMemo(() => OPERATORS.map((name) => ({ name, value: name, label: t(`designer.op.${name}`), ...(name === 'truthy' ? { arity: 'unary' as const } : {}) })), [t]);
  const combinators = useMemo(() => [{ name: 'and', value: 'and', label: t('designer.and') }, { name: 'or', value: 'or', label: t('designer.or') }], [t]);
  const translations = useBuilderTranslations(t);

  return (
    <div className={s.root} data-testid={testId}>
      {/* strict-limited: a number field's value is kept (and written) as a number, any other value as typed. */}
      <QueryBuilder fields={qbFields} query={query} operators={operators} combinators={combinators} translations={translations} parseNumbers="strict-limited"
        onQueryChange={(q) => {
          setQuery(q);
          onChange(toLogic(q));
        }} />
    </div>
  );
}
