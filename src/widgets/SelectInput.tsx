import { Combobox, Option, type ComboboxProps } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';

export interface SelectInputProps extends Omit<ComboboxProps, 'value' | 'onChange' | 'freeform' | 'children'> {
  value: string;
  options: { value: string; label: string }[];
  onValueChange(value: string): void;
}

/** Keys that move through the options: Enter after them picks the option moved to. */
const NAVIGATION = new Set(['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End']);

/**
 * The select with free text of spec §2: pick one of the options or type anything else. The value is
 * the option's value when one is picked, else the typed text. Enter right after typing (a barcode scanner types a
 * label's code and Enter) keeps what was typed unless the option it picks begins with it: the combobox's highlighted
 * option can be one left from earlier keys (the list is narrowed as the text changes), never to replace a scanned code.
 */
export function SelectInput({ value, options, onValueChange, onKeyDown, ...rest }: SelectInputProps) {
  const shown = options.find((o) => o.value === value)?.label ?? value;
  const [text, setText] = useState(shown);
  /** The value this input gave out from typing: typing an option's value (P2026-00001) must not turn the text into its label. */
  const emitted = useRef<string | null>(null);
  useEffect(() => {
    if (emitted.current !== value) setText(shown);
  }, [shown, value]);
  const typed = useRef<string | null>(null);
  const picked = useRef('');
  const matching = options.filter((o) => !text || text === shown || o.label.toLowerCase().includes(text.toLowerCase()));
  return (
    <Combobox {...rest} freeform value={text} selectedOptions={options.some((o) => o.value === value) ? [value] : []}
      onChange={(e) => {
        typed.current = e.target.value;
        emitted.current = e.target.value;
        setText(e.target.value);
        onValueChange(e.target.value);
      }}
      onOptionSelect={(_, d) => {
        if (d.optionValue === undefined) return;
        picked.current = d.optionText ?? d.optionValue;
        emitted.current = null;
        setText(d.optionText ?? d.optionValue);
        onValueChange(d.optionValue);
      }}
      // Runs after the combobox's own key handling (which may just have picked its highlighted option).
      onKeyDown={(e) => {
        onKeyDown?.(e);
        if (NAVIGATION.has(e.key)) typed.current = null;
        else if (e.key === 'Enter' && typed.current) {
          const own = typed.current;
          if (!picked.current.toLowerCase().startsWith(own.trim().toLowerCase())) {
            emitted.current = own;
            setText(own);
            onValueChange(own);
          }
          typed.current = null;
        }
        picked.current = '';
      }}>
      {matching.map((o) => <Option key={o.value} value={o.value} text={o.label}>{o.label}</Option>)}
    </Combobox>
  );
}
