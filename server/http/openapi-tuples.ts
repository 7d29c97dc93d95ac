/**
 * OpenAPI 3.0 has no tuples: its `items` is one schema, and `additionalItems` is not a keyword. TypeBox's
 * `Type.Tuple` writes JSON Schema draft 7 (`items: [a, b]`, `additionalItems: false`, min/maxItems = length),
 * which ajv validates exactly but swagger-parser rejects. For the document only, a tuple becomes an array of any
 * of its element schemas with the same length bounds; the routes keep validating with the tuple itself.
 */
export function withoutTuples<T>(node: T): T {
  if (Array.isArray(node)) return node.map((n) => withoutTuples(n)) as T;
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalItems' && Array.isArray((node as Record<string, unknown>).items)) continue;
    out[key] = key === 'items' && Array.isArray(value) ? tupleItems(value.map((v) => withoutTuples(v))) : withoutTuples(value);
  }
  return out as T;
}

/** One schema for all a tuple's positions: the element schema itself when they are all the same. */
function tupleItems(elements: unknown[]): unknown {
  const distinct = [...new Map(elements.map((e) => [JSON.stringify(e), e])).values()];
  return distinct.length === 1 ? distinct[0] : { anyOf: distinct };
}
