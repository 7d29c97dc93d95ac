import { useEffect, useState } from 'react';
import { resolveLabel } from '../../core/labels';
import { createCache } from '../cache';
import { useChoices } from '../options';
import { loadLookup, LOOKUP } from '../optionSources';
import type { EnumOption } from '../schemaApi';
import { registerCell, type CellProps } from './registry';

/**
 * A named lookup's answer for cells, shared by every cell of a list (a select reads its lookup afresh when it mounts;
 * a hundred rows must not ask a hundred times). Kept a minute, as resource options are.
 */
const lookups = createCache<EnumOption[]>(60_000);

function useLookup(source: string | undefined): EnumOption[] {
  const [rows, setRows] = useState<EnumOption[]>(() => (source && lookups.peek(source)) || []);
  useEffect(() => {
    if (!source) return;
    let live = true;
    lookups.get(source, () => loadLookup(source.slice(LOOKUP.length))).then((r) => live && setRows(r), () => undefined);
    return () => { live = false; };
  }, [source]);
  return rows;
}

/**
 * A value named by its column's option source when that is no enum: rows of a resource (`resource:cases:id` → the
 * case's number) or a named lookup (`lookup:hospitals` → the hospital's name, src/engine/optionSources.ts). Until the
 * source has loaded, and for a value it does not know, the value itself is shown.
 */
function NamedCell({ column, value, context }: CellProps) {
  const lookup = column.options?.startsWith(LOOKUP) ? column.options : undefined;
  const fromLookup = useLookup(lookup);
  const choices = useChoices(lookup ? undefined : column.options);
  const found = lookup
    ? fromLookup.find((o) => String(o.value) === String(value))?.label
    : choices.find((c) => String(c.value) === String(value))?.label;
  const text = (typeof found === 'object' && found ? resolveLabel(found, context.lang) : found as string | undefined) ?? String(value);
  return <span title={text}>{text}</span>;
}

registerCell('named', { text: (_c, v) => String(v), Component: NamedCell });
