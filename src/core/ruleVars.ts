/**
 * The data fields a piece of (expanded) json-logic reads through `var`, top-level names only
 * (`report.release_status` → `report`), in first-seen order. The server uses it to ask the database only for
 * what a rule can see: cases grouped by those fields get one evaluation per group, so a status tab's count or
 * filter is exact for any rule a hospital writes, without translating json-logic to SQL.
 * Vars inside `some`/`all`/`none`/`filter`/`map`/`reduce` read the items of a list, not the row; only the list is counted.
 */
const ITERATING = new Set(['some', 'all', 'none', 'filter', 'map', 'reduce']);

export function logicVars(logic: unknown): string[] {
  const out: string[] = [];
  const add = (name: unknown) => {
    if (typeof name !== 'string' || name === '') return;
    const top = name.split('.')[0];
    if (!out.includes(top)) out.push(top);
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const keys = Object.keys(node);
    if (keys.length !== 1) return;
    const [op] = keys;
    const args = (node as Record<string, unknown>)[op];
    if (op === 'var') return add(Array.isArray(args) ? args[0] : args);
    if (ITERATING.has(op) && Array.isArray(args)) return walk(args[0]);
    walk(args);
  };
  walk(logic);
  return out;
}
