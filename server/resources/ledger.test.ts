import Sqlite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.js';
import { withAggregates } from './aggregates.js';
import type { ResourceDef } from './definition.js';
import { moveBalance } from './ledger.js';
import { checkCrossResource } from './resource-links.js';
import type { Untyped } from './untyped.js';

// A ledger and its balances as two resource files would declare them (any names: the engine knows none).
const balances: ResourceDef = {
  name: 'lots', table: 'lots', route: '/api/lots', scope: 'hospital', readOnly: true, permissions: { list: 'x', read: 'x' },
  columns: {
    id: { type: 'integer' }, hospital_id: { type: 'integer', writable: false }, item_id: { type: 'integer', filter: true },
    lot: { type: 'string' }, held: { type: 'integer', filter: true }, price: { type: 'number' },
  },
};
const moves: ResourceDef = {
  name: 'moves', table: 'moves', route: '/api/moves', scope: 'hospital', appendOnly: true, permissions: { list: 'x', read: 'x', create: 'x' },
  columns: {
    id: { type: 'integer' }, hospital_id: { type: 'integer', writable: false }, item_id: { type: 'integer' }, lot: { type: 'string' },
    way: { type: 'string' }, qty: { type: 'integer' }, price: { type: 'number' }, lot_id: { type: 'integer', writable: false },
  },
  ledger: { balances: 'lots', key: ['item_id', 'lot'], balance: 'held', quantity: 'qty', direction: 'way', add: ['in'], take: ['out', 'scrap'], copy: ['price'], link: 'lot_id' },
};
const items: ResourceDef = {
  name: 'items', table: 'items', route: '/api/items', scope: 'hospital', permissions: { list: 'x', read: 'x', create: 'x', update: 'x', delete: 'x' },
  columns: { id: { type: 'integer' }, hospital_id: { type: 'integer', writable: false } },
  computed: { total: { type: 'integer' }, lots: { type: 'integer' }, cheapest: { type: 'number' } },
  aggregates: {
    total: { from: 'lots', key: 'item_id', op: 'sum', column: 'held' },
    lots: { from: 'lots', key: 'item_id', op: 'count', where: [{ column: 'held', operator: '>', value: 0 }] },
    cheapest: { from: 'lots', key: 'item_id', op: 'min', column: 'price' },
  },
};

describe('ledger and aggregates (SQLite in memory)', () => {
  let db: Db;
  beforeEach(async () => {
    db = new Kysely<Untyped>({ dialect: new SqliteDialect({ database: new Sqlite(':memory:') }) }) as unknown as Db;
    await sql`CREATE TABLE lots (id integer primary key autoincrement, hospital_id integer not null, item_id integer not null, lot text not null, held integer not null check (held >= 0), price real)`.execute(db);
    await sql`CREATE UNIQUE INDEX lots_key ON lots (hospital_id, item_id, lot)`.execute(db);
  });
  afterEach(async () => db.destroy());
  const move = (way: string, qty: number, lot = 'A', hospital = 1, price = 2) => moveBalance(db, moves, balances, { hospital_id: hospital, item_id: 7, lot, way, qty, price });
  const held = async () => (await sql<{ hospital_id: number; lot: string; held: number; price: number }>`SELECT hospital_id, lot, held, price FROM lots ORDER BY id`.execute(db)).rows;

  it('the first addition creates the balance row with the copied columns, later ones add to it; the link names it', async () => {
    const first = await move('in', 5);
    expect(await move('in', 3, 'A', 1, 9)).toEqual(first);
    expect(first).toEqual({ lot_id: 1 });
    // The first movement's price stays the lot's.
    expect(await held()).toEqual([{ hospital_id: 1, lot: 'A', held: 8, price: 2 }]);
  });

  it('a take below zero, from no balance, of nothing or an unknown way is refused and changes nothing', async () => {
    await move('in', 4);
    await move('scrap', 1);
    await expect(move('out', 4)).rejects.toMatchObject({ status: 422, key: 'ledger.insufficient', params: { left: 3, quantity: 4 } });
    await expect(move('out', 1, 'B')).rejects.toMatchObject({ status: 422, key: 'ledger.no_balance' });
    await expect(move('out', 0)).rejects.toMatchObject({ key: 'ledger.quantity' });
    await expect(move('lend', 1)).rejects.toMatchObject({ key: 'ledger.direction' });
    // Another hospital's lot of the same key is another balance.
    await expect(move('out', 1, 'A', 2)).rejects.toMatchObject({ key: 'ledger.no_balance' });
    expect((await held()).map((r) => r.held)).toEqual([3]);
  });

  it('aggregates: sum, filtered count and min per row, 0 or null for a row no source row points at', async () => {
    await move('in', 4, 'A', 1, 5);
    await move('in', 2, 'B', 1, 3);
    await move('out', 2, 'B');
    const rows = await withAggregates(db, items, new Map([['lots', balances]]), [{ id: 7 }, { id: 8 }]);
    expect(rows).toEqual([{ id: 7, total: 4, lots: 1, cheapest: 3 }, { id: 8, total: 0, lots: 0, cheapest: null }]);
  });
});

describe('checkCrossResource', () => {
  const all = () => [structuredClone(balances), structuredClone(moves), structuredClone(items)];
  it('accepts a consistent ledger and aggregates', () => {
    expect(() => checkCrossResource(all())).not.toThrow();
  });
  it.each([
    ['an unknown balances resource', (d: ResourceDef[]) => { d[1].ledger!.balances = 'nope'; }, /no resource nope/],
    ['balances that are writable', (d: ResourceDef[]) => { d[0].readOnly = false; }, /must be readOnly/],
    ['a key column only one side has', (d: ResourceDef[]) => { d[1].ledger!.key = ['item_id', 'way']; }, /way must be a column of both/],
    ['a text balance', (d: ResourceDef[]) => { d[0].columns.held.type = 'string'; }, /must be a number column of lots/],
    ['a writable link', (d: ResourceDef[]) => { d[1].columns.lot_id.writable = true; }, /link/],
    ['a value both adds and takes', (d: ResourceDef[]) => { d[1].ledger!.take = ['in']; }, /different/],
    ['a sum of an unknown column', (d: ResourceDef[]) => { d[2].aggregates!.total.column = 'nope'; }, /sum needs a column/],
    ['a filter on a column that is not filterable', (d: ResourceDef[]) => { d[2].aggregates!.lots.where = [{ column: 'price', operator: '>', value: 1 }]; }, /where names price/],
  ])('refuses %s', (_what, breakIt, message) => {
    const defs = all();
    breakIt(defs);
    expect(() => checkCrossResource(defs)).toThrow(message);
  });
});
