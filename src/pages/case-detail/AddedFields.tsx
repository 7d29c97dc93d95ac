import { Text } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import type { Contract, FieldDef } from '../../core/contract';
import { useChoices } from '../../engine/options';
import { loadSchema } from '../../engine/schemaApi';
import { useLabel } from '../../widgets/useLabel';

/** The case's `extra` as the lab route sends it (JSON text) or as a row already spread it. */
function extraOf(extra: unknown): Record<string, unknown> {
  if (extra && typeof extra === 'object') return extra as Record<string, unknown>;
  if (typeof extra !== 'string' || !extra) return {};
  try { return JSON.parse(extra) as Record<string, unknown>; } catch { return {}; }
}

function AddedField({ name, def, value }: { name: string; def: FieldDef; value: unknown }) {
  const { label } = useLabel();
  const choices = useChoices(def.options);
  const word = (v: unknown) => choices.find((c) => String(c.value) === String(v))?.label ?? String(v);
  const text = Array.isArray(value) ? value.map(word).join(', ') : value === undefined || value === null ? '' : word(value);
  return <Text data-testid={`case-added-${name}`}><b>{label(def.label) || name}</b>: {text}</Text>;
}

/**
 * The fields this hospital added to cases in the page designer (kept in the case's `extra`), with their labels
 * and option words: the resource's contract as the hospital extended it says which they are.
 */
export function AddedFields({ extra }: { extra: unknown }) {
  const [contract, setContract] = useState<Contract | null>(null);
  useEffect(() => {
    let live = true;
    loadSchema('CaseList').then((l) => live && setContract(l.resource?.contract ?? null), () => undefined);
    return () => { live = false; };
  }, []);
  const values = extraOf(extra);
  return <>{(contract?.extended ?? []).map((name) => <AddedField key={name} name={name} def={contract!.fields[name]} value={values[name]} />)}</>;
}
