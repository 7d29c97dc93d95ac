import { useChoices } from '../options';
import { registerCell, type CellProps } from './registry';

/**
 * A value named by its column's option source when that is no enum: rows of a resource (`resource:cases` → the case's
 * number) or a named lookup (`lookup:hospitals` → the hospital's name, src/engine/optionSources.ts). Each source loads
 * once per page (cached, options.ts); until it has, and for a value it does not know, the value itself is shown.
 */
function NamedCell({ column, value }: CellProps) {
  const choices = useChoices(column.options);
  const text = choices.find((c) => String(c.value) === String(value))?.label ?? String(value);
  return <span title={text}>{text}</span>;
}

registerCell('named', { text: (_c, v) => String(v), Component: NamedCell });
