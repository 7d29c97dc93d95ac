import { Input } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { registerSearchWidget, type SearchInputProps } from './registry';
import { placeholderOf, useFieldStyles } from './styles';

const numberOrEmpty = (text: string) => (text === '' ? undefined : Number(text));
const shown = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** A number, or a from–to pair of numbers. */
function NumberInput({ item, value, label, onChange }: SearchInputProps) {
  const s = useFieldStyles();
  return <Input className={s.full} type="number" aria-label={label} placeholder={placeholderOf(item.props)} value={shown(value)} onChange={(_, d) => onChange(numberOrEmpty(d.value))} />;
}

function NumberRangeInput({ value, label, onChange }: SearchInputProps) {
  const s = useFieldStyles();
  const { t } = useTranslation();
  const pair = Array.isArray(value) ? value : [];
  const set = (i: number, v: string) => {
    const next = [pair[0], pair[1]];
    next[i] = numberOrEmpty(v);
    onChange(next.every((x) => x === undefined) ? [] : next);
  };
  return (
    <span className={s.pair} role="group" aria-label={label}>
      <Input className={s.full} type="number" aria-label={t('search.from')} value={shown(pair[0])} onChange={(_, d) => set(0, d.value)} />
      <span aria-hidden>–</span>
      <Input className={s.full} type="number" aria-label={t('search.to')} value={shown(pair[1])} onChange={(_, d) => set(1, d.value)} />
    </span>
  );
}

registerSearchWidget('number', NumberInput);
registerSearchWidget('numberrange', NumberRangeInput);
