import { Badge, Button, Checkbox, Input, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_OPERATORS } from '../../../core/customSearch';
import type { JsonLogic } from '../../../core/pageSchema';
import type { RuleSet } from '../../../core/rules';
import { casesToIf, ifCases, isWordList, type RuleCases } from '../../../core/ruleTestData';
import { RULE_REF, RuleBuilder, builderReads, type RuleField } from './RuleBuilder';
import { RuleValueInput } from './RuleValueInput';
import type { RoleChoice } from './ActionsEditor';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  rule: { border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium, padding: tokens.spacingHorizontalS, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  head: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  name: { fontFamily: tokens.fontFamilyMonospace, fontWeight: tokens.fontWeightSemibold },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  /** A case: when | its condition | its answer | remove, on one line as long as the page is wide enough. */
  caseRow: { display: 'grid', gridTemplateColumns: '64px minmax(0, 1fr) 220px 32px', gap: tokens.spacingHorizontalS, alignItems: 'start', marginBottom: tokens.spacingVerticalXS },
  then: { display: 'flex', flexDirection: 'column', gap: '2px' },
  when: { minWidth: 0 },
  words: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
  small: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

/** Every `{ var: name }` a piece of json-logic reads: the fields the builder offers for a set. */
function varsOf(logic: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(logic)) logic.forEach((x) => varsOf(x, out));
  else if (logic && typeof logic === 'object') {
    for (const [op, args] of Object.entries(logic)) {
      if (op === 'var') {
        const name = Array.isArray(args) ? args[0] : args;
        if (typeof name === 'string' && name) out.add(name);
      } else varsOf(args, out);
    }
  }
  return out;
}

type Shape = 'words' | 'condition' | 'cases' | 'json';
/** How a rule is drawn: a list of words, a condition in the builder, an if-chain of conditions and answers, else JSON. */
export function shapeOf(logic: unknown): Shape {
  if (isWordList(logic)) return 'words';
  if (builderReads(logic)) return 'condition';
  const cases = ifCases(logic);
  if (cases && cases.cases.every((c) => builderReads(c.when))) return 'cases';
  return 'json';
}

/**
 * A rule set of schemas/rules edited with the designer's rule builder instead of as JSON: conditions (who may run a
 * case transition) in the builder, if-chains (the case status) as cases of a condition and an answer, word lists
 * (the operators each search input offers) as choices; whatever the builder cannot draw stays editable as JSON.
 * The draft is the merged set; the editor saves the merge patch that turns the base into it.
 */
export function RuleSetDesigner({ set, others, roles, fieldLabels, onChange }: {
  set: RuleSet; others: RuleSet[]; roles: RoleChoice[]; fieldLabels: Record<string, string>; onChange(set: RuleSet): void;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const fields = useMemo<RuleField[]>(() => {
    const names = varsOf(set.rules, new Set<string>());
    const refs = [...others.filter((o) => o.name !== set.name), set].flatMap((o) => Object.keys(o.rules).map((r) => `${o.name}.${r}`)).sort();
    // What the data of the rule sets holds besides a case's fields (src/core/ruleTestData.ts).
    const known: Record<string, string> = { roles: t('designer.testRoles'), widget: t('designer.searchWidget'), field: t('designer.testFieldName') };
    const labelOf = (name: string) => known[name] ?? fieldLabels[name.replace(/^case\./, '')];
    const list: RuleField[] = [...names].sort().map((name) => ({
      name, label: labelOf(name) && labelOf(name) !== name ? `${labelOf(name)} (${name})` : name,
      ...(name === 'roles' ? { values: roles.map((r) => ({ value: r.identification, label: `${r.name} (${r.identification})` })) } : {}),
    }));
    return [...list, { name: RULE_REF, label: t('designer.ruleRef'), values: refs.map((r) => ({ value: r, label: r })) }];
  }, [set, others, roles, fieldLabels, t]);
  // A rule's shape is decided when it is first drawn: a condition emptied while being edited stays in the builder.
  const shapes = useRef(new Map<string, Shape>());
  const shape1 = (rule: string, logic: unknown) => {
    if (!shapes.current.has(rule)) shapes.current.set(rule, shapeOf(logic));
    return shapes.current.get(rule)!;
  };
  const put = (rule: string, logic: unknown) => onChange({ ...set, rules: { ...set.rules, [rule]: logic } });

  const words = (rule: string, list: string[]) => (set.name === 'search-operators' ? (
    <div className={s.words} data-testid={`rule-words-${rule}`}>
      {SEARCH_OPERATORS.map((op) => (
        <Checkbox key={op} label={t(`search.operators.${op}`)} checked={list.includes(op)}
          onChange={(_, d) => put(rule, d.checked ? SEARCH_OPERATORS.filter((o) => o === op || list.includes(o)) : list.filter((o) => o !== op))} data-testid={`rule-word-${rule}-${op}`} />
      ))}
    </div>
  ) : (
    <Input size="small" value={list.join(', ')} onChange={(_, d) => put(rule, d.value.split(',').map((w) => w.trim()).filter(Boolean))} aria-label={t('designer.ruleWords')} data-testid={`rule-words-${rule}`} />
  ));

  const cases = (rule: string, c: RuleCases) => {
    const set1 = (next: RuleCases) => put(rule, casesToIf(next));
    return (
      <div data-testid={`rule-cases-${rule}`}>
        {c.cases.map((x, i) => (
          <div key={`${i}-${c.cases.length}`} className={s.caseRow}>
            <span className={s.small}>{i === 0 ? t('designer.when') : t('designer.elseWhen')}</span>
            <div className={s.when}>
              <RuleBuilder anyField fields={fields} value={x.when as JsonLogic} testId={`rule-case-${rule}-${i}`}
                onChange={(when) => set1({ ...c, cases: c.cases.map((y, j) => (j === i ? { ...y, when: when ?? false } : y)) })} />
            </div>
            <span className={s.then}>
              <span className={s.small}>{t('designer.then')}</span>
              <RuleValueInput value={x.then} testId={`rule-then-${rule}-${i}`} onChange={(then) => set1({ ...c, cases: c.cases.map((y, j) => (j === i ? { ...y, then } : y)) })} />
            </span>
            <Button size="small" appearance="subtle" icon={<Delete20Regular />} aria-label={t('designer.remove')} title={t('designer.remove')}
              onClick={() => set1({ ...c, cases: c.cases.filter((_, j) => j !== i) })} />
          </div>
        ))}
        <div className={s.row}>
          <Button size="small" icon={<Add20Regular />} onClick={() => set1({ ...c, cases: [...c.cases, { when: false, then: '' }] })} data-testid={`rule-add-case-${rule}`}>{t('designer.addCase')}</Button>
          <span className={s.small}>{t('designer.otherwise')}</span>
          <RuleValueInput value={c.otherwise} testId={`rule-otherwise-${rule}`} onChange={(otherwise) => set1({ ...c, otherwise })} />
        </div>
      </div>
    );
  };

  return (
    <div className={s.root} data-testid="rule-designer">
      {Object.entries(set.rules).map(([rule, logic]) => {
        const shape = shape1(rule, logic);
        return (
          <div key={rule} className={s.rule} data-testid={`rule-${rule}`}>
            <div className={s.head}>
              <span className={s.name}>{`${set.name}.${rule}`}</span>
              <Badge size="small" appearance="outline">{t(`designer.ruleShape.${shape}`)}</Badge>
            </div>
            {shape === 'words' ? words(rule, logic as string[]) : null}
            {shape === 'condition' ? <RuleBuilder anyField fields={fields} value={logic as JsonLogic} testId={`rule-builder-${rule}`} onChange={(next) => put(rule, next ?? false)} /> : null}
            {shape === 'cases' ? cases(rule, ifCases(logic) ?? { cases: [], otherwise: logic }) : null}
            {shape === 'json' ? <RuleValueInput multiline value={logic} testId={`rule-json-${rule}`} onChange={(next) => put(rule, next)} /> : null}
          </div>
        );
      })}
    </div>
  );
}
