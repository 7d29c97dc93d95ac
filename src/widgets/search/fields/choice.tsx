import { Dropdown, Option } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { SelectInput } from '../../SelectInput';
import { choiceOf, useChoicesHook } from '../choices';
import { registerSearchWidget, type SearchInputProps } from './registry';
import { placeholderOf, useFieldStyles } from './styles';

/** Choices from the item's options (an enum, a resource, or inline): one, several, yes/no, or pick-or-type. */
function ChoiceInput({ item, widget, multiple, value, label, onChange }: SearchInputProps) {
  const s = useFieldStyles();
  const { t } = useTranslation();
  const choices = useChoicesHook()(item.options);
  const list = widget === 'boolean' && !choices.length ? [{ value: 1, label: t('search.yes') }, { value: 0, label: t('search.no') }] : choices;
  const many = multiple ?? widget === 'multiselect';
  const values = (Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value]).map(String);
  const shown = values.map((v) => choiceOf(list, v)?.label ?? v).join(', ');
  return (
    <Dropdown className={s.full} aria-label={label} placeholder={placeholderOf(item.props)} multiselect={many} clearable value={shown} selectedOptions={values}
      onOptionSelect={(_, d) => {
        const pick = (v: string) => choiceOf(list, v)?.value ?? v;
        if (many) onChange(d.selectedOptions.map(pick));
        else onChange(d.optionValue === undefined || !d.selectedOptions.length ? undefined : pick(d.optionValue));
      }}>
      {list.map((c) => <Option key={String(c.value)} value={String(c.value)}>{c.label}</Option>)}
    </Dropdown>
  );
}

function PickOrTypeInput({ item, value, label, onChange }: SearchInputProps) {
  const s = useFieldStyles();
  const choices = useChoicesHook()(item.options);
  return <SelectInput className={s.full} aria-label={label} placeholder={placeholderOf(item.props)} value={value === undefined || value === null ? '' : String(value)}
    options={choices.map((c) => ({ value: String(c.value), label: c.label }))} onValueChange={(v) => onChange(v || undefined)} />;
}

registerSearchWidget('select', ChoiceInput);
registerSearchWidget('multiselect', ChoiceInput);
registerSearchWidget('boolean', ChoiceInput);
registerSearchWidget('selectinput', PickOrTypeInput);
