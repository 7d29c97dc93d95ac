import { Input } from '@fluentui/react-components';
import { registerSearchWidget, type SearchInputProps } from './registry';
import { placeholderOf, useFieldStyles } from './styles';

/** A text box: the default for text fields. */
function TextInput({ item, value, label, onChange }: SearchInputProps) {
  const s = useFieldStyles();
  return <Input className={s.full} aria-label={label} placeholder={placeholderOf(item.props)} value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
    onChange={(_, d) => onChange(d.value === '' ? undefined : d.value)} />;
}

registerSearchWidget('input', TextInput);
