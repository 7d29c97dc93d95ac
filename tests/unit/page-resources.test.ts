import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resourceContract } from '../../src/core/contract';
import type { PageSchema, TabCondition } from '../../src/core/pageSchema';
import { resourceFiles } from './resources';
import { LOOKUP_NAMES } from '../../src/core/lookupNames';

/**
 * Every page against its resource: what a page names must exist where the server serves it. Columns show
 * fields the resource reads (columns, joined or computed fields); sortable columns and search items use what
 * the resource lets lists sort and filter by; enums exist; a resource form shows only fields its contract
 * accepts and every field the contract requires; request and download actions name their permission.
 */
const PAGES = path.resolve('schemas/pages');
const pages: PageSchema[] = fs.readdirSync(PAGES).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(PAGES, f), 'utf8')));
const enums: Record<string, unknown> = Object.assign({}, ...fs.readdirSync('schemas/enums').map((f) => JSON.parse(fs.readFileSync(path.join('schemas/enums', f), 'utf8'))));

type Field = { type: string; filter?: boolean; sort?: boolean; options?: unknown; readable?: boolean };

function optionsProblem(options: unknown): string | null {
  if (typeof options !== 'string') return null;
  if (options.startsWith('resource:')) {
    // `resource:<name>` or `resource:<name>:<column>` (the rows' column as the value, src/engine/options.ts).
    const [name, column] = options.slice('resource:'.length).split(':');
    const def = resourceFiles[name];
    return def && (column === undefined || def.columns[column]) ? null : `no resource ${options}`;
  }
  if (options.startsWith('lookup:')) return (LOOKUP_NAMES as readonly string[]).includes(options.slice('lookup:'.length)) ? null : `no lookup ${options}`;
  return enums[options] ? null : `no enum ${options}`;
}

const conditionFields = (list: readonly TabCondition[]): string[] => list.flatMap((c) => [...(c.field ? [c.field] : []), ...conditionFields(c.child ?? [])]);

function pageProblems(page: PageSchema): string[] {
  const def = resourceFiles[page.resource!];
  if (!def) return [`no resource ${page.resource}`];
  const stored = { ...def.columns, ...def.virtual } as Record<string, Field>;
  const read = { ...def.computed, ...def.inputs, ...stored } as Record<string, Field>;
  const problems: string[] = [];
  const need = (ok: unknown, what: string) => { if (!ok) problems.push(what); };

  for (const c of page.list?.columns ?? []) {
    need(read[c.field] && read[c.field].readable !== false, `column ${c.field}: not a field the resource reads`);
    if (c.colorField) need(read[c.colorField], `column ${c.field}: colorField ${c.colorField} is not a field the resource reads`);
    if (c.sortable) need(stored[c.field]?.sort, `column ${c.field}: sortable, but the resource does not sort by it`);
    const o = optionsProblem(c.options ?? read[c.field]?.options);
    if (o) problems.push(`column ${c.field}: ${o}`);
  }
  for (const f of page.detail?.sections.flatMap((s) => s.fields) ?? []) need(read[f.field], `detail field ${f.field}: not a field the resource reads`);
  for (const i of page.search?.items ?? []) {
    need(stored[i.field]?.filter, `search ${i.field}: the resource does not filter by it`);
    const o = optionsProblem(i.options ?? stored[i.field]?.options);
    if (o) problems.push(`search ${i.field}: ${o}`);
  }
  // A derived field (a case's rule-derived status) filters through the resource's hooks (server/resources/derived-filters.ts).
  const derived = new Set((def as { derivedFilters?: string[] }).derivedFilters ?? []);
  for (const t of page.list?.tabs ?? []) for (const f of conditionFields(t.filter ?? [])) need(stored[f]?.filter || derived.has(f), `tab ${t.key}: the resource does not filter by ${f}`);
  const facet = page.list?.facet;
  if (facet) {
    need(stored[facet.field]?.filter || derived.has(facet.field), `facet: the resource does not filter by ${facet.field}`);
    const o = optionsProblem(facet.options);
    if (o) problems.push(`facet: ${o}`);
  }
  for (const s of Object.keys(page.list?.defaultSort ?? {})) need(stored[s]?.sort, `defaultSort ${s}: the resource does not sort by it`);
  const card = page.list?.card;
  for (const f of card ? [card.image, card.title, ...(card.subtitle ?? []), ...(card.meta ?? [])].filter(Boolean) : []) {
    need(page.list!.columns.some((c) => c.field === f), `card ${f}: not a column of the list`);
  }
  for (const a of [...(page.list?.rowActions ?? []), ...(page.list?.batchActions ?? []), ...(page.list?.toolbar ?? [])]) {
    if (a.kind === 'request' || a.kind === 'download' || a.kind === 'reveal') need(a.permission, `action ${a.key}: a ${a.kind} action names its permission`);
    if (a.prompt && a.kind === 'patch') need(stored[a.prompt.field], `action ${a.key}: prompt field ${a.prompt.field} is not a column`);
    if (a.prompt?.defaultFrom) need(stored[a.prompt.defaultFrom], `action ${a.key}: the prompt starts from ${a.prompt.defaultFrom}, not a field of the row`);
    if (a.kind === 'patch') for (const f of Object.keys(a.patch ?? {})) need(stored[f], `action ${a.key}: patches ${f}, not a column`);
  }
  if (page.form && !page.form.contract) {
    const contract = resourceContract(def);
    const shown = page.form.fields.map((f) => (typeof f === 'string' ? f : f.field));
    for (const f of shown) need(contract.fields[f], `form field ${f}: the resource's contract does not accept it`);
    for (const f of contract.required ?? []) need(shown.includes(f), `form: the contract requires ${f}, which the form does not show`);
    for (const f of Object.keys(contract.rules?.requiredIf ?? {})) need(shown.includes(f), `form: the contract may require ${f}, which the form does not show`);
    for (const [name, field] of Object.entries(contract.fields)) {
      const o = optionsProblem(field.options);
      if (o) problems.push(`contract field ${name}: ${o}`);
    }
  }
  return problems;
}

describe('every page against its resource', () => {
  for (const page of pages.filter((p) => p.resource)) {
    it(`${page.alias} → ${page.resource}`, () => expect(pageProblems(page)).toEqual([]));
  }

  it('names what a page gets wrong', () => {
    expect(pageProblems({
      alias: 'Broken', type: 'list', resource: 'cases',
      list: { columns: [{ field: 'no_such' }, { field: 'clinical_diagnosis', sortable: true }, { field: 'pathology_number', colorField: 'no_colour' }],
        facet: { field: 'clinical_diagnosis', options: 'no_enum' }, tabs: [{ key: 't', label: 't', filter: [{ field: 'clinical_diagnosis', operator: '=', value: 1 }] }],
        rowActions: [
          { key: 'go', label: 'Go', kind: 'request', request: { method: 'POST', url: '/x' } },
          { key: 'ask', label: 'Ask', kind: 'request', permission: 'case_view', request: { method: 'POST', url: '/x' }, prompt: { field: 'f', defaultFrom: 'no_field' } },
        ] },
      search: { items: [{ field: 'clinical_diagnosis' }, { field: 'case_type', options: 'no_enum' }] },
      form: { fields: ['case_type', 'made_up'] },
    })).toEqual([
      'column no_such: not a field the resource reads',
      'column clinical_diagnosis: sortable, but the resource does not sort by it',
      'column pathology_number: colorField no_colour is not a field the resource reads',
      'search clinical_diagnosis: the resource does not filter by it',
      'search case_type: no enum no_enum',
      'tab t: the resource does not filter by clinical_diagnosis',
      'facet: the resource does not filter by clinical_diagnosis',
      'facet: no enum no_enum',
      'action go: a request action names its permission',
      'action ask: the prompt starts from no_field, not a field of the row',
      'form field made_up: the resource\'s contract does not accept it',
      'form: the contract requires pathology_number, which the form does not show',
    ]);
  });

  it('every resource field with options names an enum or resource that exists', () => {
    const problems = Object.values(resourceFiles).flatMap((r) => Object.entries({ ...r.columns, ...r.virtual, ...r.computed, ...r.inputs } as Record<string, Field>)
      .map(([n, f]) => [n, optionsProblem(f.options)] as const).filter(([, p]) => p).map(([n, p]) => `${r.name}.${n}: ${p}`));
    expect(problems).toEqual([]);
  });
});
