/**
 * The case lifecycle in the lab (spec §1, §4, §5): phases, kinds, the steps of slide making, the orders a
 * doctor may give, and which state each transition starts from. Pure data and checks, shared by the server's
 * commands and the browser's buttons (a button is shown only where the command would be accepted).
 * Which ROLE may run a transition is not here: it is data, schemas/rules/case-transitions.json.
 */

export const CASE_PHASES = ['apply', 'registration', 'sample', 'slide_making', 'diagnosis', 'archive'] as const;
export type CasePhase = (typeof CASE_PHASES)[number];

/** Case kinds (spec §1); outside: material made in another hospital, sent in for diagnosis. */
export const CASE_KINDS = ['routine', 'frozen', 'cell', 'outside'] as const;
export const EXTERNAL_CONSULTATION_KINDS = ['ex_specimen', 'ex_paraffin_block', 'ex_slide'] as const;
export const ALL_CASE_KINDS = [...CASE_KINDS, ...EXTERNAL_CONSULTATION_KINDS] as const;
/** Kinds whose blocks and slides come from another hospital: no doctor orders on them (spec §5). */
export const OUTSIDE_KINDS: readonly string[] = ['outside', 'ex_paraffin_block', 'ex_slide'];

/** Spec §4 slide-making steps, in order; after the last one the slides are ready for diagnosis. */
export const SLIDE_STEPS = ['dehydration', 'embeded', 'cut', 'stain', 'cover'] as const;
export type SlideStep = (typeof SLIDE_STEPS)[number];

export const SPECIAL_EXAMINATIONS = ['immunohistochemisty', 'special_stain', 'molecular_pathology'] as const;
export const ADDITIONAL_REQUESTS = [
  're_sample', 're_cut', 'deep_cut', 'thin_cut', 're_embeded', 'tube_cut', 'consult_he_cut', 'glue_cut', 'consult_cut',
  'continue_cut', 'read_cut', 'cell_block', 'other',
] as const;
/** Additional requests worked on a wax block (the rest name a specimen, or nothing: re_sample, cell_block, other). */
export const BLOCK_REQUESTS: readonly string[] = ['re_cut', 'deep_cut', 'thin_cut', 're_embeded', 'tube_cut', 'consult_he_cut', 'glue_cut', 'consult_cut', 'continue_cut', 'read_cut'];

/** Spec §4 slide application states. */
export const APPLICATION_STATUS = { applied: 0, dispatched: 1, received: 2, registered: 3, rejected: -1 } as const;

/**
 * SlideApply's steps between applied and registered: the clinic sends the specimen on its way (dispatched), the lab
 * takes it in (received). Each starts from exactly one state; registration and rejection take any open one.
 */
export const APPLICATION_STEPS = {
  dispatch_application: { from: APPLICATION_STATUS.applied, to: APPLICATION_STATUS.dispatched, at: 'dispatched_at', by: 'dispatched_by' },
  receive_application: { from: APPLICATION_STATUS.dispatched, to: APPLICATION_STATUS.received, at: 'received_at', by: 'received_by' },
} as const;
export type ApplicationStep = keyof typeof APPLICATION_STEPS;

/** Spec §4 specimen types: 1 frozen-paired … 6 cytology; anything else is paraffin. */
export const SPECIMEN_TYPES = [1, 2, 3, 4, 5, 6] as const;

export const TRANSITIONS = ['register', 'receive', 'reject', 'sample', 'make_slides', 'distribute', 'order', 'change_number', 'apply', 'reject_application', 'print_labels', 'dispatch_application', 'receive_application'] as const;
export type Transition = (typeof TRANSITIONS)[number];
/** The transitions of an existing case (the others create a case or work on an application, or only log). */
export type CaseTransition = Exclude<Transition, 'register' | 'apply' | 'reject_application' | 'print_labels' | ApplicationStep>;

/** The phase (and, where it matters, the sub-phase) a transition starts from. */
const FROM: Record<CaseTransition, { phases: readonly string[]; subPhases?: readonly string[] }> = {
  receive: { phases: ['registration'] },
  reject: { phases: ['registration'] },
  sample: { phases: ['sample'] },
  make_slides: { phases: ['slide_making'], subPhases: SLIDE_STEPS },
  distribute: { phases: ['diagnosis'], subPhases: ['to_allot'] },
  order: { phases: ['sample', 'slide_making', 'diagnosis'] },
  change_number: { phases: ['registration', 'sample', 'slide_making', 'diagnosis'] },
};

export interface CaseState { main_phase: string; sub_phase: string | null }

/** True when a case in `state` may undergo `transition` (role aside). */
export function transitionAllowed(transition: keyof typeof FROM, state: CaseState): boolean {
  const from = FROM[transition];
  if (!from.phases.includes(state.main_phase)) return false;
  return !from.subPhases || from.subPhases.includes(state.sub_phase ?? '');
}

/** The state after a slide-making step: the next step, or diagnosis awaiting allocation after the last. */
export function afterSlideStep(step: SlideStep): CaseState {
  const i = SLIDE_STEPS.indexOf(step);
  return i === SLIDE_STEPS.length - 1 ? { main_phase: 'diagnosis', sub_phase: 'to_allot' } : { main_phase: 'slide_making', sub_phase: SLIDE_STEPS[i + 1] };
}

export interface SpecimenState { id: number; status: string }
export interface BlockPlan { specimen_id: number }

/**
 * Spec §5 "each specimen needs at least one material block entry": the received specimens the sampling
 * plan leaves without a block, and the blocks naming a specimen that is not received (not this case's,
 * rejected, or still awaiting receipt).
 */
export function samplingProblems(specimens: SpecimenState[], blocks: BlockPlan[]): { withoutBlock: number[]; notReceived: number[] } {
  const received = new Set(specimens.filter((s) => s.status === 'received').map((s) => s.id));
  const covered = new Set(blocks.map((b) => b.specimen_id));
  return {
    withoutBlock: [...received].filter((id) => !covered.has(id)),
    notReceived: [...new Set(blocks.map((b) => b.specimen_id).filter((id) => !received.has(id)))],
  };
}

export interface OrderInput {
  category: 'special' | 'additional';
  order_type: string;
  block_id?: number | null;
  specimen_id?: number | null;
  reagent_id?: number | null;
}

/**
 * What an order of this type names (the order form asks for exactly these; orderProblem refuses an order
 * without them): a special examination a block and its reagent, a block request its block, a re-sample its specimen.
 */
export function orderNeeds(category: OrderInput['category'], orderType: string): { block: boolean; specimen: boolean; reagent: boolean } {
  if (category === 'special') return { block: true, specimen: false, reagent: true };
  return { block: BLOCK_REQUESTS.includes(orderType), specimen: orderType === 're_sample', reagent: false };
}

/** What makes two orders "the same order" (spec §5 "repeated orders cannot be added") while the first is open. */
export const orderKey = (o: OrderInput) => [o.category, o.order_type, o.block_id ?? '', o.specimen_id ?? '', o.reagent_id ?? ''].join(':');

export type OrderProblem = 'order_empty' | 'order_incomplete' | 'order_outside' | 'order_used_up' | 'order_repeated';

export interface OrderContext {
  caseType: string;
  blocks: Map<number, { outside: number }>;
  specimens: Map<number, { status: string }>;
  /** orderKey of the case's open orders */
  openKeys: Set<string>;
}

/**
 * Why a batch of technical orders is refused (spec §5), checked as a whole before anything is written:
 * an empty batch; an incomplete order (unknown type, a special examination without its reagent and block, a
 * block request without its block, a re-sample without its specimen, or naming what is not this case's);
 * an order on outside-hospital material; a re-sample of a used-up specimen; an order already open, or
 * given twice in the batch.
 */
export function orderProblem(orders: OrderInput[], ctx: OrderContext): { problem: OrderProblem; index: number } | undefined {
  if (!orders.length) return { problem: 'order_empty', index: -1 };
  const seen = new Set(ctx.openKeys);
  for (const [index, o] of orders.entries()) {
    const block = o.block_id != null ? ctx.blocks.get(o.block_id) : undefined;
    const specimen = o.specimen_id != null ? ctx.specimens.get(o.specimen_id) : undefined;
    const incomplete = (o.block_id != null && !block) || (o.specimen_id != null && !specimen)
      || (o.category === 'special' ? !(SPECIAL_EXAMINATIONS as readonly string[]).includes(o.order_type) || o.reagent_id == null || !block
        : !(ADDITIONAL_REQUESTS as readonly string[]).includes(o.order_type)
          || (BLOCK_REQUESTS.includes(o.order_type) && !block)
          || (o.order_type === 're_sample' && !specimen));
    if (incomplete) return { problem: 'order_incomplete', index };
    if (OUTSIDE_KINDS.includes(ctx.caseType) || block?.outside) return { problem: 'order_outside', index };
    if (o.order_type === 're_sample' && specimen?.status === 'used_up') return { problem: 'order_used_up', index };
    const key = orderKey(o);
    if (seen.has(key)) return { problem: 'order_repeated', index };
    seen.add(key);
  }
  return undefined;
}
