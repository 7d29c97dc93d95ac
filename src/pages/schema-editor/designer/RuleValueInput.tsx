import { Input, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  json: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, width: '100%', minWidth: 0 },
  text: { width: '100%', minWidth: 0 },
  wrap: { display: 'block', width: '100%' },
  bad: { color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200 },
});

/**
 * What a rule answers (an if-chain's result, or a rule the builder cannot draw): text typed as text, anything else
 * (a number, a list, json-logic) as JSON, kept as typed until it parses, so a half-typed value never reaches the draft.
 */
export function RuleValueInput({ value, onChange, testId, multiline }: { value: unknown; onChange(value: unknown): void; testId: string; multiline?: boolean }) {
  const s = useStyles();
  const { t } = useTranslation();
  const asText = typeof value === 'string';
  const [text, setText] = useState(() => (asText ? value : JSON.stringify(value, null, multiline ? 2 : undefined)));
  const [bad, setBad] = useState('');
  if (asText && !multiline) {
    return <Input className={s.text} size="small" value={value} onChange={(_, d) => onChange(d.value)} aria-label={t('designer.ruleAnswer')} placeholder={t('designer.emptyText')} data-testid={testId} />;
  }
  const edit = (next: string) => {
    setText(next);
    try {
      onChange(JSON.parse(next));
      setBad('');
    } catch (e) {
      setBad((e as Error).message);
    }
  };
  return (
    <span className={s.wrap}>
      {multiline
        ? <Textarea className={s.json} textarea={{ className: s.json, spellCheck: false }} resize="vertical" rows={6} value={text} onChange={(_, d) => edit(d.value)} aria-label={t('designer.ruleJson')} data-testid={testId} />
        : <Input className={s.json} size="small" value={text} onChange={(_, d) => edit(d.value)} aria-label={t('designer.ruleJson')} data-testid={testId} />}
      {bad ? <div className={s.bad}>{bad}</div> : null}
    </span>
  );
}
