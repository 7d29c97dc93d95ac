/** One piece of json-logic a page schema or contract extension carries, and where (a JSON pointer). */
export interface LogicAt { path: string; logic: unknown }

/**
 * The json-logic of a page schema or contract extension: an action's `visibleIf`, and a form's `rules`
 * (`visibleIf` and `requiredIf` by field, `checks[].rule`). What the save checks of it: the operations it uses
 * (rules.ts) and its cost (ruleCost.ts).
 */
export function schemaLogic(doc: unknown): LogicAt[] {
  const out: LogicAt[] = [];
  const walk = (node: unknown, path: string, depth: number) => {
    if (!node || typeof node !== 'object' || depth > 64) return;
    if (Array.isArray(node)) {
      node.forEach((n, i) => walk(n, `${path}/${i}`, depth + 1));
      return;
    }
    const formRules = path.endsWith('/rules');
    for (const [key, value] of Object.entries(node)) {
      const at = `${path}/${key}`;
      if (formRules && (key === 'visibleIf' || key === 'requiredIf') && value && typeof value === 'object') {
        for (const [field, logic] of Object.entries(value)) out.push({ path: `${at}/${field}`, logic });
      } else if (formRules && key === 'checks' && Array.isArray(value)) {
        value.forEach((check: { rule?: unknown }, i) => out.push({ path: `${at}/${i}/rule`, logic: check?.rule }));
      } else if (!formRules && key === 'visibleIf') {
        out.push({ path: at, logic: value });
      } else {
        walk(value, at, depth + 1);
      }
    }
  };
  walk(doc, '', 0);
  return out;
}
