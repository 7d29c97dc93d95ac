import type { ResourceDef } from './definition.js';

const NUMERIC = new Set(['integer', 'number']);

/**
 * What one resource file says about another (a ledger's balances, an aggregate's source), checked once at load with
 * every file in hand, so a misspelled resource or column stops the server by name instead of reaching SQL.
 */
export function checkCrossResource(defs: ResourceDef[]): ResourceDef[] {
  const byName = new Map(defs.map((d) => [d.name, d]));
  for (const def of defs) {
    const bad = (what: string) => { throw new Error(`${def.name}: ${what}`); };
    const l = def.ledger;
    if (l) {
      const target = byName.get(l.balances);
      if (!target) bad(`ledger.balances: no resource ${l.balances}`);
      else {
        if (target.scope !== def.scope) bad(`ledger: ${l.balances} must have the same scope as ${def.name}`);
        if (!target.readOnly) bad(`ledger: ${l.balances} must be readOnly: its balances move only through the ledger`);
        if (!l.key.length) bad('ledger.key names no column');
        for (const c of [...l.key, ...(l.copy ?? [])]) if (!def.columns[c] || !target.columns[c]) bad(`ledger: ${c} must be a column of both ${def.name} and ${l.balances}`);
        if (!NUMERIC.has(target.columns[l.balance]?.type ?? '')) bad(`ledger.balance: ${l.balance} must be a number column of ${l.balances}`);
      }
      if (!NUMERIC.has(def.columns[l.quantity]?.type ?? '')) bad(`ledger.quantity: ${l.quantity} must be a number column`);
      if (!def.columns[l.direction]) bad(`ledger.direction: ${l.direction} is not a column`);
      if (!l.add.length || !l.take.length || l.add.some((v) => l.take.includes(v))) bad('ledger: add and take must name different, non-empty values');
      if (l.link && def.columns[l.link]?.writable !== false) bad(`ledger.link: ${l.link} must be a column that is not writable`);
    }
    for (const [field, a] of Object.entries(def.aggregates ?? {})) {
      const source = byName.get(a.from);
      if (!source) { bad(`aggregates.${field}: no resource ${a.from}`); continue; }
      if (!source.columns[a.key]) bad(`aggregates.${field}: ${a.key} is not a column of ${a.from}`);
      if (a.op !== 'count' && !source.columns[a.column ?? '']) bad(`aggregates.${field}: ${a.op} needs a column of ${a.from}`);
      if (a.op === 'sum' && !NUMERIC.has(source.columns[a.column ?? '']?.type ?? '')) bad(`aggregates.${field}: sum needs a number column`);
      for (const c of a.where ?? []) if (c.column && !source.columns[c.column]?.filter) bad(`aggregates.${field}: where names ${c.column}, not a filterable column of ${a.from}`);
    }
  }
  return defs;
}
