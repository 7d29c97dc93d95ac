import { describe, expect, it } from 'vitest';
import borrowOrders from '../../schemas/rules/borrow-orders.json';
import archiveItems from '../../schemas/rules/archive-items.json';
import borrowResource from '../../schemas/resources/borrow_orders.json';
import archiveResource from '../../schemas/resources/archive_items.json';
import logisticsOrders from '../../schemas/rules/logistics-orders.json';
import reportDeliveries from '../../schemas/rules/report-deliveries.json';
import followUps from '../../schemas/rules/follow-ups.json';
import logisticsResource from '../../schemas/resources/logistics_orders.json';
import deliveryResource from '../../schemas/resources/report_deliveries.json';
import followResource from '../../schemas/resources/follow_ups.json';
import consultations from '../../schemas/rules/consultations.json';
import consultationResource from '../../schemas/resources/consultations.json';
import { transitionOpen } from './actions.js';
import { ruleFieldValues } from './ruleFields.js';
import { checkRuleSet } from './rulesCheck.js';
import { ruleResolver, type RuleSet } from './rules.js';
import { allowedTransitions, initialPatch, machineOf, machineProblems, machineSetProblems, transitionPatch, transitionRefusal, type Actor } from './stateMachine.js';

const resolve = ruleResolver([borrowOrders, archiveItems, logisticsOrders, reportDeliveries, followUps, consultations] as RuleSet[], () => undefined);
const machine = machineOf('borrow-orders', resolve)!;
const actor = (roles: string[], permissions: string[] = []): Actor => ({ roles, granted: (c) => roles.includes('admin') || permissions.includes(c) });
const registrar = actor(['registrar'], ['borrow_view', 'borrow_apply', 'borrow_lend']);
const signer = actor(['auditing_doctor'], ['borrow_view']);
const order = (status: string, due = '2026-12-31') => ({ id: 1, status, due_date: due });
const NOW = '2026-12-03T10:00:00.000Z';

describe('state machine from a rule file (src/core/stateMachine.ts)', () => {
  it('the shipped machines are well-formed against their resources, each step with its rule', () => {
    for (const [set, res] of [[borrowOrders, borrowResource], [archiveItems, archiveResource], [logisticsOrders, logisticsResource],
      [reportDeliveries, deliveryResource], [followUps, followResource], [consultations, consultationResource]] as const) {
      expect(checkRuleSet(set)).toEqual([]);
      expect(machineProblems((set.rules as Record<string, unknown>).machine, Object.keys(res.columns))).toEqual([]);
    }
    expect(machineSetProblems({ machine: { ...machine, transitions: { ...machine.transitions, lost: { from: ['borrowing'], to: 'gone', label: { 'zh-CN': '丢失', 'en-US': 'Lost' } } } } }))
      .toEqual([{ path: '/rules/machine', message: 'machine.transitions.lost.to: a state of the machine' }]);
    expect(machineSetProblems({ machine })).toContainEqual({ path: '/rules/pass', message: 'transition pass needs a rule saying who may take it' });
    expect(machineOf('borrow-orders', () => ({ field: 'status' }))).toBeUndefined();
  });

  it('a step is refused for a missing permission, the role, the state, then the guard, in that order', () => {
    const d = (record: Record<string, unknown>, a: Actor, input = {}) => ({ record, actor: a, input, now: NOW });
    expect(transitionRefusal('borrow-orders', machine, 'burn', d(order('checking'), registrar), resolve)).toEqual({ reason: 'unknown' });
    expect(transitionRefusal('borrow-orders', machine, 'lend', d(order('checked_pass'), signer), resolve)).toEqual({ reason: 'permission', permission: 'borrow_lend' });
    expect(transitionRefusal('borrow-orders', machine, 'pass', d(order('checking'), registrar), resolve)).toEqual({ reason: 'role' });
    expect(transitionRefusal('borrow-orders', machine, 'pass', d(order('borrowing'), signer), resolve)).toEqual({ reason: 'state', state: 'borrowing' });
    expect(transitionRefusal('borrow-orders', machine, 'refuse', d(order('checking'), signer), resolve)).toMatchObject({ reason: 'guard', message: { 'en-US': 'Give the reason when declining' } });
    expect(transitionRefusal('borrow-orders', machine, 'refuse', d(order('checking'), signer, { check_note: 'no purpose given' }), resolve)).toBeUndefined();
    expect(transitionRefusal('borrow-orders', machine, 'lend', d(order('checked_pass', '2026-12-02'), registrar), resolve)).toMatchObject({ reason: 'guard' });
    expect(allowedTransitions('borrow-orders', machine, d(order('checked_pass'), registrar), resolve)).toEqual(['lend']);
    expect(allowedTransitions('borrow-orders', machine, d(order('borrowing'), actor(['admin'])), resolve)).toEqual(['return']);
  });

  it('a step writes its state and its who/when', () => {
    expect(transitionPatch(machine, 'lend', { userId: 7, now: NOW })).toEqual({ status: 'borrowing', lent_by: 7, lent_at: NOW });
    const archive = machineOf('archive-items', resolve)!;
    expect(transitionPatch(archive, 'unpack', { userId: 7, now: NOW })).toEqual({ archive_status: 'filed', packed_by: null, packed_at: null, box: null });
  });

  it('a new row starts in the initial state with its initialSets; a rule may ask which hospital the actor works in', () => {
    const logistics = machineOf('logistics-orders', resolve)!;
    expect(initialPatch(logistics, { userId: 7, now: NOW })).toEqual({ status: 'distributed', distributed_by: 7, distributed_at: NOW });
    expect(initialPatch(machine, { userId: 7, now: NOW })).toEqual({ status: 'checking' });
    expect(machineProblems({ ...logistics, initial: undefined })).toContain('machine.initialSets: columns of the resource other than the state, with an initial state');
    expect(machineProblems({ ...logistics, initialSets: { status: 'signed' } })).toHaveLength(1);
    const desk = (hospital: number): Actor => ({ roles: ['registrar'], granted: () => true, hospital });
    const moving = { id: 1, status: 'in_transit', hospital_id: 1, to_hospital_id: 2 };
    expect(transitionRefusal('logistics-orders', logistics, 'sign', { record: moving, actor: desk(1), now: NOW }, resolve)).toEqual({ reason: 'role' });
    expect(transitionRefusal('logistics-orders', logistics, 'sign', { record: moving, actor: desk(2), now: NOW }, resolve)).toBeUndefined();
    expect(allowedTransitions('logistics-orders', logistics, { record: { ...moving, status: 'distributed' }, actor: desk(1), now: NOW }, resolve)).toEqual(['ship']);
    const grants = { identification: ['registrar'], permission: ['logistics_view', 'logistics_sign'] };
    expect(transitionOpen('logistics-orders.sign', moving, { ...grants, hospital: 2 }, resolve)).toBe(true);
    expect(transitionOpen('logistics-orders.sign', moving, { ...grants, hospital: 1 }, resolve)).toBe(false);
  });

  it('a follow-up\'s reminder is the rule file\'s: due today, overdue, none once ended', () => {
    const fields = { due: 'follow-ups.due' };
    const follow = (status: string, date: string) => ({ id: 1, status, follow_date: date });
    expect(ruleFieldValues(fields, follow('following', '2026-12-03'), resolve, NOW)).toEqual({ due: 1 });
    expect(ruleFieldValues(fields, follow('following', '2026-12-01'), resolve, NOW)).toEqual({ due: 2 });
    expect(ruleFieldValues(fields, follow('following', '2026-12-04'), resolve, NOW)).toEqual({ due: 0 });
    expect(ruleFieldValues(fields, follow('ended', '2026-12-01'), resolve, NOW)).toEqual({ due: 0 });
  });

  it('the browser shows a step where the server would take it (a guard reading a prompt is left to the server)', () => {
    const grants = { identification: ['registrar'], permission: ['borrow_view', 'borrow_lend'] };
    expect(transitionOpen('borrow-orders.lend', order('checked_pass'), grants, resolve)).toBe(true);
    expect(transitionOpen('borrow-orders.lend', order('checking'), grants, resolve)).toBe(false);
    expect(transitionOpen('borrow-orders.pass', order('checking'), grants, resolve)).toBe(false);
    expect(transitionOpen('borrow-orders.refuse', order('checking'), { identification: ['auditing_doctor'], permission: [] }, resolve)).toBe(true);
    expect(transitionOpen('borrow-orders.lend', order('checked_pass'), grants, undefined)).toBe(false);
  });

  it('a rule may name the actor (`me`): only the colleague a consultation asks answers it; a link holder has no id', () => {
    const cm = machineOf('consultations', resolve)!;
    const asked = { id: 3, status: 'requested', mode: 'in_department', consultant_id: 7, single_use: 1 };
    const doctor = (id: number): Actor => ({ ...actor(['primary_doctor'], ['consult_answer']), id });
    const d = (record: Record<string, unknown>, a: Actor) => ({ record, actor: a, input: { opinion: 'benign' }, now: NOW });
    expect(transitionRefusal('consultations', cm, 'answer', d(asked, doctor(7)), resolve)).toBeUndefined();
    expect(transitionRefusal('consultations', cm, 'answer', d(asked, doctor(8)), resolve)).toEqual({ reason: 'role' });
    const link: Actor = { roles: ['consultation_link'], granted: () => false, id: null };
    const remote = { ...asked, mode: 'remote', consultant_id: null };
    expect(transitionRefusal('consultations', cm, 'answer_link', d(remote, link), resolve)).toBeUndefined();
    expect(transitionRefusal('consultations', cm, 'answer_link', d({ ...remote, status: 'answered' }, link), resolve)).toMatchObject({ reason: 'guard' });
    expect(transitionRefusal('consultations', cm, 'answer_link', d({ ...remote, status: 'answered', single_use: 0 }, link), resolve)).toBeUndefined();
    expect(transitionRefusal('consultations', cm, 'answer_link', d(remote, doctor(7)), resolve)).toEqual({ reason: 'role' });
    expect(transitionPatch(cm, 'answer_link', { userId: null, now: NOW })).toEqual({ status: 'answered', answered_by: null, answered_at: NOW });
    expect(transitionOpen('consultations.answer', asked, { identification: ['primary_doctor'], permission: ['consult_answer'], userId: 7 }, resolve)).toBe(true);
    expect(transitionOpen('consultations.answer', asked, { identification: ['primary_doctor'], permission: ['consult_answer'], userId: 8 }, resolve)).toBe(false);
  });

  it('overdue is the rule file\'s: borrowing past the due date', () => {
    const fields = { overdue: 'borrow-orders.overdue' };
    expect(ruleFieldValues(fields, order('borrowing', '2026-12-02'), resolve, NOW)).toEqual({ overdue: 1 });
    expect(ruleFieldValues(fields, order('borrowing', '2026-12-03'), resolve, NOW)).toEqual({ overdue: 0 });
    expect(ruleFieldValues(fields, order('returned', '2026-12-02'), resolve, NOW)).toEqual({ overdue: 0 });
    expect(ruleFieldValues({ x: 'borrow-orders.missing' }, order('borrowing'), resolve, NOW, () => undefined)).toEqual({ x: null });
  });
});
