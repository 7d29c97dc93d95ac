import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * The list rules that belong to one resource are declared in its JSON file (issue 28), not known to the engine:
 * cases.json says a condition on `age` brings `age_unit = year` (spec §5), so an age search finds ages in years,
 * through the address's filter and its plain equalities alike.
 */
describe.each(databases)('a list rule its resource declares [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let years: number;
  let months: number;

  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
    const hospital = (await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const ids = (await h.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital).orderBy('id').limit(2).execute()).map((r) => r.id);
    [years, months] = ids;
    // An age no seeded case has: 131 years, and 131 months (a child of eleven).
    await h.db.updateTable('cases').set({ age: 131, age_unit: 'year' }).where('id', '=', years).execute();
    await h.db.updateTable('cases').set({ age: 131, age_unit: 'month' }).where('id', '=', months).execute();
  });
  afterAll(async () => h?.close());

  const listed = async (query: Record<string, unknown>) => {
    const res = await call(h.app, 'GET', `/api/pathology/lists?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, JSON.stringify(v)]))}`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.data as { id: number }[]).map((r) => r.id);
  };

  it('finds an age in years only, by a filter condition and by plain equality', async () => {
    expect(await listed({ filter: [{ column: 'age', operator: '=', value: 131 }] })).toEqual([years]);
    expect(await listed({ params: { age: 131 } })).toEqual([years]);
    expect(await listed({ filter: [{ column: 'age', operator: '>=', value: 131 }] })).toEqual([years]);
  });

  it('leaves the unit alone on a condition on another column', async () => {
    const both = await listed({ filter: [{ column: 'id', operator: 'in', value: [years, months] }] });
    expect(both.sort((a, b) => a - b)).toEqual([years, months].sort((a, b) => a - b));
  });
});
