import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';
import type { MessageKey } from '../../i18n/messages.js';
import { orderKey, orderProblem, type OrderInput, type OrderProblem } from '../../../src/core/caseLifecycle.js';
import { blocksOf, openOrdersOf, specimensOf, type CaseRow } from './lifecycle-queries.js';
import { caseFor, commitMove, type LabDeps } from './transition.js';
import type { OrdersInput } from './lifecycle-bodies.js';
import { chargeOrders } from '../prices/charges.js';

const REFUSAL: Record<OrderProblem, { status: number; key: MessageKey }> = {
  order_empty: { status: 422, key: 'lab.order_empty' },
  order_incomplete: { status: 422, key: 'lab.order_incomplete' },
  order_outside: { status: 422, key: 'lab.order_outside' },
  order_used_up: { status: 422, key: 'lab.specimen_used_up' },
  order_repeated: { status: 409, key: 'lab.order_repeated' },
};

/**
 * Technical orders (doctor's advice to the lab): special examinations with their reagent, and additional
 * requests. The whole batch is checked first (spec §5 refusals, src/core/caseLifecycle.ts) and written in one
 * transaction or not at all; the case gets its technical-advice / special-check markers.
 */
export async function addOrders(deps: LabDeps, request: FastifyRequest, caseId: number, input: OrdersInput): Promise<CaseRow> {
  const current = await caseFor(deps, request, 'order', caseId);
  const orders: OrderInput[] = input.orders;
  const reagentIds = [...new Set(orders.map((o) => o.reagent_id).filter((r): r is number => r != null))];
  const reagents = reagentIds.length ? await deps.db.selectFrom('reagents').select(['id', 'name']).where('id', 'in', reagentIds).execute() : [];
  const reagentName = new Map(reagents.map((r) => [r.id, r.name]));
  // An unknown reagent makes the order incomplete, like a missing one.
  const checked = orders.map((o) => (o.reagent_id != null && !reagentName.has(o.reagent_id) ? { ...o, reagent_id: null } : o));
  const [blocks, specimens, open] = await Promise.all([blocksOf(deps.db, current.id), specimensOf(deps.db, current.id), openOrdersOf(deps.db, current.id)]);
  const problem = orderProblem(checked, {
    caseType: current.case_type,
    blocks: new Map(blocks.map((b) => [b.id, b])),
    specimens: new Map(specimens.map((s) => [s.id, s])),
    openKeys: new Set(open.map((o) => o.open_key ?? '')),
  });
  if (problem) throw new AppError(REFUSAL[problem.problem].status, REFUSAL[problem.problem].key, { index: problem.index + 1 });

  const special = input.orders.filter((o) => o.category === 'special');
  const parse = (v: unknown): string[] => (Array.isArray(v) ? v as string[] : typeof v === 'string' && v ? JSON.parse(v) as string[] : []);
  const specialCheck = [...new Set([...parse(current.special_check), ...special.map((o) => reagentName.get(o.reagent_id!) ?? o.order_type)])];
  const advice = [...new Set([...parse(current.doctor_advice), ...input.orders.filter((o) => o.category === 'additional').map((o) => o.order_type)])];
  return commitMove(deps, request, current, {
    action: 'order',
    patch: {
      has_technology_advice: advice.length ? 1 : current.has_technology_advice, has_spec_advice: special.length ? 1 : current.has_spec_advice,
      special_check: JSON.stringify(specialCheck), doctor_advice: JSON.stringify(advice),
    },
    detail: { orders: input.orders.map((o) => o.order_type) },
  }, async (trx, now) => {
    const written = await trx.insertInto('technical_orders').values(input.orders.map((o) => ({
      hospital_id: current.hospital_id, case_id: current.id, category: o.category, order_type: o.order_type,
      specimen_id: o.specimen_id ?? null, block_id: o.block_id ?? null, reagent_id: o.reagent_id ?? null, quantity: o.quantity ?? 1,
      note: o.note ?? null, status: 'open', open_key: orderKey(o), ordered_by: request.auth!.id, created_at: now, done_at: null,
    }))).returning(['id', 'category', 'order_type', 'quantity']).execute();
    await chargeOrders(trx, { hospitalId: current.hospital_id, caseId: current.id, by: request.auth!.id, at: now }, written);
  });
}
