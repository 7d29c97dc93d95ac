import { Combobox, Option, type ComboboxProps } from '@fluentui/react-components';
import { useEffect, useState } from 'react';

export interface SelectInputProps extends Omit<ComboboxProps, 'value' | 'onChange' | 'freeform' | 'children'> {
  value: string;
  options: { value: string; label: string }[];
  onValueChange(value: string): void;
}

/**
 * The select with free text of spec §2: pick one of the options or type anything else. The value is
 * the option's value when one is picked, else the typed text.
 */
export function SelectInput({ value, options, onValueChange, ...rest }: SelectInputProps) {
  const shown = options.find((o) => o.value === value)?.label ?? value;
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]);
  const matching = options.filter((o) => !text || text === shown || o.label.toLowerCase().includes(text.toLowerCase()));
  return (
    <Combobox {...rest} freeform value={text} selectedOptions={options.some((o) => o.value === value) ? [value] : []}
      onChange={(e) => {
        setText(e.target.value);
        onValueChange(e.target.value);
      }}
      onOptionSelect={(_, d) => {
        if (d.optionValue === undefined) return;
        setText(d.optionText ?? d.optionValue);
        onValueChange(d.optionValue);
      }}>
      {matching.map((o) => <Option key={o.value} value={o.value} text={o.label}>{o.label}</Option>)}
    </Combobox>
  );
}
