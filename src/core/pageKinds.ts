import type { SchemaProblem } from './pageSchemaCheck.js';

/** The names each registry holds (cell kinds, action kinds, search widgets, live sources), as the engine reports them. */
export interface KnownKinds { cell: readonly string[]; action: readonly string[]; widget: readonly string[]; live: readonly string[] }

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => !!x && typeof x === 'object') : []);
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

/**
 * The kind names a page uses that no registry holds. The meta-schema checks only their shape: the kinds follow from
 * the registries (one file and its registration each), so the page check asks them, at the page's JSON pointer.
 */
export function unknownKinds(page: unknown, known: KnownKinds): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const check = (value: unknown, names: readonly string[], path: string, what: string) => {
    if (typeof value === 'string' && !names.includes(value)) problems.push({ path, message: `unknown ${what} "${value}": one of ${names.join(', ')}` });
  };
  const p = obj(page);
  const l = obj(p.list);
  list(l.columns).forEach((c, i) => check(c.cell, known.cell, `/list/columns/${i}/cell`, 'cell kind'));
  for (const part of ['rowActions', 'batchActions', 'toolbar']) {
    list(l[part]).forEach((a, i) => check(a.kind, known.action, `/list/${part}/${i}/kind`, 'action kind'));
  }
  check(l.live, known.live, '/list/live', 'live source');
  const d = obj(p.detail);
  list(d.sections).forEach((s, i) => list(s.fields).forEach((f, j) => check(f.cell, known.cell, `/detail/sections/${i}/fields/${j}/cell`, 'cell kind')));
  check(d.live, known.live, '/detail/live', 'live source');
  list(obj(p.search).items).forEach((item, i) => check(item.widget, known.widget, `/search/items/${i}/widget`, 'search widget'));
  return problems;
}
