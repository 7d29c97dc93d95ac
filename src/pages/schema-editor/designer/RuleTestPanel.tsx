import { Button, Dropdown, Input, Option, Select, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, makeStyles, tokens } from '@fluentui/react-components';
import { Search20Regular } from '@fluentui/react-icons';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayText } from '../../../api/client';
import { evaluateNamed, ruleResolver, type RuleSet } from '../../../core/rules';
import { ruleCostText } from '../../../engine/ruleCostText';
import { ruleInput, ruleTestData } from '../../../core/ruleTestData';
import { httpDataProvider, type Row } from '../../../engine/dataProvider';
import type { RoleChoice } from './ActionsEditor';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  answer: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, wordBreak: 'break-all' },
  warn: { color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200 },
  small: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

/** Where the records a rule can be tried on come from: the hospital's cases (the sets of schemas/rules read cases). */
const CASES = { route: '/api/pathology' };
const WIDGETS = ['input', 'selectinput', 'number', 'numberrange', 'date', 'daterange', 'datetimerange', 'select', 'multiselect', 'boolean'];

/**
 * Tries the rule set being edited (the draft, not yet saved) on a real record of the hospital: pick a case (and,
 * for the rules that ask who acts, the roles), and every rule of the set answers, evaluated by the one evaluator
 * of src/core/rules.ts with the data the server hands it (src/core/ruleTestData.ts).
 */
export function RuleTestPanel({ set, others, roles }: { set: RuleSet; others: RuleSet[]; roles: RoleChoice[] }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const input = ruleInput(set.name);
  const [text, setText] = useState('');
  const [found, setFound] = useState<Row[] | null>(null);
  const [record, setRecord] = useState<Row | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [widget, setWidget] = useState('select');
  const [field, setField] = useState('');
  const [error, setError] = useState('');

  const find = async () => {
    setError('');
    try {
      const res = await httpDataProvider.getList(CASES, { pagination: { current: 1, pageSize: 20 }, search: text }, { silent: true });
      setFound(res.data);
      setRecord(res.data[0] ?? null);
    } catch (e) {
      setError(displayText(e, t('engine.loadFailed')));
    }
  };

  const answers = useMemo(() => {
    if (input !== 'widget-field' && !record) return null;
    const warnings: string[] = [];
    const warn = (m: string) => { if (!warnings.includes(m)) warnings.push(m); };
    const resolve = ruleResolver([...others.filter((o) => o.name !== set.name), set], warn);
    const data = ruleTestData(set.name, { record, roles: picked, widget, field });
    const rows = Object.keys(set.rules).map((rule) => {
      try {
        return { rule, answer: evaluateNamed(`${set.name}.${rule}`, data, { resolve, fallback: undefined, warn }) };
      } catch (e) {
        // A rule stopped at its work limit is this rule's answer, as it would stop a page.
        const stopped = ruleCostText(t, e);
        if (stopped === undefined) throw e;
        return { rule, answer: undefined, stopped };
      }
    });
    return { rows, warnings };
  }, [input, record, others, set, picked, widget, field, t]);

  const roleName = (r: RoleChoice) => (i18n.language === 'en-US' && r.en_name ? r.en_name : r.name);
  return (
    <div className={s.root} data-testid="rule-test-panel">
      <span className={s.small}>{t(`designer.testInput.${input}`)}</span>
      {input === 'widget-field' ? (
        <div className={s.bar}>
          <Select size="small" aria-label={t('designer.searchWidget')} value={widget} onChange={(_, d) => setWidget(d.value)} data-testid="rule-test-widget">
            {WIDGETS.map((w) => <option key={w} value={w}>{t(`designer.widgets.${w}`)}</option>)}
          </Select>
          <Input size="small" value={field} onChange={(_, d) => setField(d.value.trim())} placeholder={t('designer.testField')} aria-label={t('designer.testField')} data-testid="rule-test-field" />
        </div>
      ) : (
        <div className={s.bar}>
          <Input size="small" value={text} onChange={(_, d) => setText(d.value)} placeholder={t('designer.testFindCase')} aria-label={t('designer.testFindCase')}
            onKeyDown={(e) => { if (e.key === 'Enter') void find(); }} data-testid="rule-test-search" />
          <Button size="small" icon={<Search20Regular />} onClick={() => void find()} data-testid="rule-test-find">{t('designer.testFind')}</Button>
          {found ? (
            <Select size="small" aria-label={t('designer.testRecord')} value={record ? String(record.id) : ''} onChange={(_, d) => setRecord(found.find((r) => String(r.id) === d.value) ?? null)} data-testid="rule-test-record">
              {found.length ? null : <option value="">{t('designer.testNoRecord')}</option>}
              {found.map((r) => <option key={String(r.id)} value={String(r.id)}>{`${String(r.pathology_number ?? r.id)} ${String(r.patient_name ?? '')}`}</option>)}
            </Select>
          ) : null}
          {input === 'roles-case' ? (
            <Dropdown multiselect size="small" placeholder={t('designer.testNoRoles')} aria-label={t('designer.testRoles')} value={picked.join(', ')} selectedOptions={picked}
              onOptionSelect={(_, d) => setPicked(d.selectedOptions)} data-testid="rule-test-roles">
              {roles.map((r) => <Option key={r.identification} value={r.identification} text={r.identification}>{`${roleName(r)} (${r.identification})`}</Option>)}
            </Dropdown>
          ) : null}
        </div>
      )}
      {error ? <span className={s.warn}>{error}</span> : null}
      {answers ? (
        <Table size="small">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('designer.testRule')}</TableHeaderCell>
              <TableHeaderCell>{t('designer.testAnswer')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {answers.rows.map((a) => (
              <TableRow key={a.rule}>
                <TableCell className={s.answer}>{a.rule}</TableCell>
                <TableCell className={s.answer} data-testid={`rule-test-answer-${a.rule}`}>{'stopped' in a ? a.stopped : a.answer === undefined ? t('designer.testNoAnswer') : JSON.stringify(a.answer)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : <span className={s.small}>{t('designer.testPickFirst')}</span>}
      {answers?.warnings.length ? <ul className={s.warn} data-testid="rule-test-warnings">{answers.warnings.map((w) => <li key={w}>{w}</li>)}</ul> : null}
    </div>
  );
}
