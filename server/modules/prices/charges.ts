import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { caseItem, orderItem, priceCents, priceKind } from '../../../src/core/prices.js';

export interface ChargeMoment {
  hospitalId: number;
  caseId: number;
  by: number | null;
  at: string;
}

/** The hospital's enabled prices of these items, in cents. */
async function pricesOf(trx: Kysely<Database>, hospitalId: number, items: string[]): Promise<Map<string, number>> {
  if (!items.length) return new Map();
  const rows = await trx.selectFrom('price_items').select(['item', 'price'])
    .where('hospital_id', '=', hospitalId).where('status', '=', 1).where('item', 'in', [...new Set(items)]).execute();
  return new Map(rows.flatMap((r) => {
    const cents = priceCents(Number(r.price));
    return cents === null ? [] : [[r.item, cents] as const];
  }));
}

type Charge = { key: string; item: string; orderId: number | null; quantity: number };

/**
 * Charges, inside the transaction that registers the case or writes the orders: each at the price the list holds
 * now (an item without an enabled price is not charged). A charge key is written once, so a retried step charges
 * nothing twice; the rows are what income statistics sum.
 */
async function charge(trx: Kysely<Database>, m: ChargeMoment, charges: Charge[]): Promise<void> {
  const prices = await pricesOf(trx, m.hospitalId, charges.map((c) => c.item));
  const rows = charges.flatMap((c) => {
    const unit = prices.get(c.item);
    const kind = priceKind(c.item);
    if (unit === undefined || kind === null) return [];
    return [{
      hospital_id: m.hospitalId, case_id: m.caseId, order_id: c.orderId, charge_key: c.key, item: c.item, kind,
      quantity: c.quantity, unit_price_cents: unit, amount_cents: unit * c.quantity, charged_by: m.by, charged_at: m.at,
    }];
  });
  if (rows.length) await trx.insertInto('case_charges').values(rows).onConflict((oc) => oc.column('charge_key').doNothing()).execute();
}

/** The case fee of its kind, charged at registration. */
export const chargeCase = (trx: Kysely<Database>, m: ChargeMoment, caseType: string) =>
  charge(trx, m, [{ key: `case:${m.caseId}`, item: caseItem(caseType), orderId: null, quantity: 1 }]);

/** Each technical order by its category, type and quantity, charged when it is given. */
export const chargeOrders = (trx: Kysely<Database>, m: ChargeMoment, orders: { id: number; category: string; order_type: string; quantity: number }[]) =>
  charge(trx, m, orders.map((o) => ({ key: `order:${o.id}`, item: orderItem(o.category, o.order_type), orderId: o.id, quantity: o.quantity })));
