import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryBuilder, type Field, type RuleGroupTypeIC } from 'react-querybuilder';
import 'react-querybuilder/dist/query-builder.css';
import type { TabCondition } from '../../../core/pageSchema';
import { TAB_FILTER_OPERATORS, queryToTabFilter, tabFilterToQuery, type QueryGroupIC } from '../../../core/tabFilterQuery';
import { useBuilderStyles } from './builderStyles';
import { useBuilderTranslations } from './builderTranslations';
import type { RuleField } from './RuleBuilder';

/** The builder's operator name → the words the search already has for it (search.operators), or the designer's. */
const LABEL_KEY: Record<string, string> = {
  contains: 'search.operators.like', doesNotContain: 'search.operators.not like', notIn: 'search.operators.not in', notBetween: 'search.operators.not between',
  null: 'designer.op.null', notNull: 'designer.op.notNull',
};

/**
 * A tab's filter built in the rule builder (the same one as the form rules), written as the filter DSL the list
 * engine sends (spec §5): conditions joined one after another by and / or / except (the builder's independent
 * combinators), groups as `child`. `numeric` fields get numbers, as the server compares them.
 */
export function TabFilterBuilder({ fields, value, onChange, numeric, testId }: {
  fields: RuleField[]; value: TabCondition[] | undefined; onChange(filter: TabCondition[]): void; numeric(field: string): boolean; testId: string;
}) {
  const s = useBuilderStyles();
  const { t } = useTranslation();
  const qbFields = useMemo<(Field & { value: string })[]>(() => fields.map((f) => (f.values
    ? { name: f.name, value: f.name, label: f.label, valueEditorType: 'select' as const, values: f.values.map((v) => ({ name: v.value, value: v.value, label: v.label })), defaultValue: f.values[0]?.value }
    : { name: f.name, value: f.name, label: f.label, ...(numeric(f.name) ? { inputType: 'number' } : {}) })), [fields, numeric]);
  // Read once; the builder keeps half-built conditions in its own state (they are left out of what is saved).
  const [query, setQuery] = useState<RuleGroupTypeIC>(() => tabFilterToQuery(value) as RuleGroupTypeIC);
  const operators = useMemo(() => TAB_FILTER_OPERATORS.map((name) => ({ name, value: name, label: t(LABEL_KEY[name] ?? `search.operators.${name}`) })), [t]);
  const combinators = useMemo(() => (['and', 'or', 'except'] as const).map((c) => ({ name: c, value: c, label: t(`search.combinators.${c}`) })), [t]);
  const translations = useBuilderTranslations(t);
  return (
    <div className={s.root} data-testid={testId}>
      <QueryBuilder fields={qbFields} query={query} operators={operators} combinators={combinators} translations={translations} listsAsArrays
        onQueryChange={(q) => {
          setQuery(q);
          onChange(queryToTabFilter(q as QueryGroupIC, numeric));
        }} />
    </div>
  );
}
