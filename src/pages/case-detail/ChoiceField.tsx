import { Dropdown, Field, Option } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';

/**
 * A labelled dropdown that chooses one item by id (an order's block, specimen or reagent), showing "choose" until
 * one is chosen. `name` is what the closed dropdown shows; `option`, when given, what the list shows instead.
 */
export function ChoiceField<T extends { id: number }>({ label, items, chosen, onChoose, name, option, testId, className }: {
  label: string;
  items: readonly T[];
  chosen: number | undefined;
  onChoose(id: number): void;
  name(item: T): string;
  option?(item: T): string;
  testId: string;
  className: string;
}) {
  const { t } = useTranslation();
  const item = chosen ? items.find((x) => x.id === chosen) : undefined;
  return (
    <Field label={label}>
      <Dropdown className={className} value={item ? name(item) : ''} selectedOptions={chosen ? [String(chosen)] : []}
        placeholder={t('lab.orders.choose')} data-testid={testId} onOptionSelect={(_e, d) => onChoose(Number(d.optionValue))}>
        {items.map((x) => <Option key={x.id} value={String(x.id)} text={name(x)}>{option ? option(x) : name(x)}</Option>)}
      </Dropdown>
    </Field>
  );
}
