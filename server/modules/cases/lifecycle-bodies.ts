import { Type, type Static } from '@sinclair/typebox';
import { ADDITIONAL_REQUESTS, ALL_CASE_KINDS, SLIDE_STEPS, SPECIAL_EXAMINATIONS } from '../../../src/core/caseLifecycle.js';
import { CONNECTORS, MAX_SERIAL_LENGTH } from '../../../src/core/pathologyNumber.js';
import { WRITE_LIMITS } from '../../resources/limits.js';

/** Request bodies of the lifecycle commands: every field bounded (ARCHITECTURE.md §6). */
const text = (max: number) => Type.Optional(Type.String({ maxLength: max }));
const date = Type.Optional(Type.String({ maxLength: 32, pattern: '^\\d{4}-\\d{2}-\\d{2}([ T][0-9:.]+Z?)?$' }));
const ids = Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 200 });

export const CaseId = Type.Object({ id: Type.Integer({ minimum: 1 }) });

const patient = {
  patient_name: text(128), gender: text(8), age: Type.Optional(Type.Integer({ minimum: 0, maximum: 200 })),
  age_unit: Type.Optional(Type.Union([Type.Literal('year'), Type.Literal('month'), Type.Literal('day')])),
  outpatient_number: text(64), admission_number: text(64), inspection_department: text(255), inspection_doctor: text(128),
  clinical_diagnosis: text(2000),
};
const caseKind = Type.Optional(Type.Union(ALL_CASE_KINDS.map((k) => Type.Literal(k))));

export const ApplyBody = Type.Object({
  apply_number: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
  case_type: caseKind, specimen_name: text(255), ...patient,
}, { additionalProperties: false });
export type ApplyInput = Static<typeof ApplyBody>;

/**
 * What the clinic's application form sends (ClinicalApply): ApplyBody without the number, which the server gives
 * (the HIS's orders bring their own, modules/hl7). The patient and the specimen are checked in `apply`, so their
 * refusal is worded in the user's language.
 */
export const ClinicApplyBody = Type.Object({
  ...ApplyBody.properties,
  apply_number: Type.Optional(ApplyBody.properties.apply_number),
}, { additionalProperties: false });
export type ClinicApplyInput = Static<typeof ClinicApplyBody>;

export const ReasonBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false });

const Specimen = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  specimen_type: Type.Optional(Type.Integer({ minimum: 0, maximum: 99 })),
  fixative: text(64), fixed_at: date, location: text(255), leave_body_at: date,
}, { additionalProperties: false });

/**
 * A value of a field the hospital added to cases (the designer's new fields, kept in the case's `extra`). Any
 * scalar type, so nothing is coerced before the field's own type checks it with the registration form; only
 * bounded: text within the resource's text limit, a short list of short values, no objects.
 */
const AddedValue = Type.Unsafe<unknown>({
  type: ['string', 'number', 'boolean', 'null', 'array'], maxLength: WRITE_LIMITS.textLength, maxItems: 100,
  items: { type: ['string', 'number'], maxLength: 200 },
});

export const RegisterBody = Type.Object({
  application_id: Type.Optional(Type.Integer({ minimum: 1 })),
  case_type: caseKind,
  pathology_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_ -]+$' })),
  ...patient,
  id_number: text(32), phone: text(32), treat_type: text(16), bed_number: text(32),
  inspection_hospital: text(255), inspection_date: date,
  // Spec §3 patient fields the cases table has no column for: kept in the case's extra (REGISTRATION_EXTRA).
  nation: text(32), career: text(64), marriage: text(16), fee_type: text(16), medical_number: text(64),
  expedite_status: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  /** The subspecialty directory the case is filed under (spec §6); one of the hospital's. */
  subspecialty_id: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  specimens: Type.Array(Specimen, { maxItems: 50 }),
}, { additionalProperties: AddedValue, maxProperties: 80 });
/** The body's own fields, and the fields a hospital added to cases (checked by name and type in registration.ts). */
export type RegisterInput = Static<typeof RegisterBody> & Record<string, unknown>;
/** The fields of the registration command itself; any other must be one the hospital added to cases. */
export const REGISTER_FIELDS: ReadonlySet<string> = new Set(Object.keys(RegisterBody.properties));
/** Registration fields stored in the case's `extra` JSON, not in columns of their own. */
export const REGISTRATION_EXTRA = ['nation', 'career', 'marriage', 'fee_type', 'medical_number'] as const;

export const SpecimenIdsBody = Type.Object({ specimen_ids: Type.Optional(ids) }, { additionalProperties: false });
export const RejectBody = Type.Object({ specimen_ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 200 }), reason: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false });

export const SampleBody = Type.Object({
  blocks: Type.Array(Type.Object({
    specimen_id: Type.Integer({ minimum: 1 }),
    block_number: Type.Optional(Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9][A-Za-z0-9-]*$' })),
    tissue_count: Type.Optional(Type.Integer({ minimum: 0, maximum: 999 })),
    description: text(500),
  }, { additionalProperties: false }), { maxItems: 200 }),
  used_up_specimen_ids: Type.Optional(ids),
}, { additionalProperties: false });
export type SampleInput = Static<typeof SampleBody>;

export const SlideStepBody = Type.Object({
  step: Type.Union(SLIDE_STEPS.map((s) => Type.Literal(s))),
  sections: Type.Optional(Type.Array(Type.Object({ block_id: Type.Integer({ minimum: 1 }), stain: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false }), { maxItems: 500 })),
}, { additionalProperties: false });
export type SlideStepInput = Static<typeof SlideStepBody>;
/** A batch of slide making: the codes scanned (cassette or slide labels) or chosen (pathology numbers), one step for all. */
export const SlideBatchBody = Type.Object({
  step: Type.Union(SLIDE_STEPS.map((s) => Type.Literal(s))),
  codes: Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_ #.-]+$' }), { minItems: 1, maxItems: 200 }),
}, { additionalProperties: false });
export type SlideBatchInput = Static<typeof SlideBatchBody>;
/** The scan dialog's check: any scanned text (a stray scan is reported, not refused), as many as a batch takes. */
export const SlideBatchCheckBody = Type.Object({
  step: Type.Union(SLIDE_STEPS.map((s) => Type.Literal(s))),
  codes: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 200 }),
}, { additionalProperties: false });

export const DistributeBody = Type.Object({ doctor_id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });

export const OrdersBody = Type.Object({
  orders: Type.Array(Type.Object({
    category: Type.Union([Type.Literal('special'), Type.Literal('additional')]),
    order_type: Type.Union([...SPECIAL_EXAMINATIONS, ...ADDITIONAL_REQUESTS].map((t) => Type.Literal(t))),
    block_id: Type.Optional(Type.Integer({ minimum: 1 })),
    specimen_id: Type.Optional(Type.Integer({ minimum: 1 })),
    reagent_id: Type.Optional(Type.Integer({ minimum: 1 })),
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 99 })),
    note: text(500),
  }, { additionalProperties: false }), { maxItems: 50 }),
}, { additionalProperties: false });
export type OrdersInput = Static<typeof OrdersBody>;

export const NumberBody = Type.Object({ new_number: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_ -]+$' }) }, { additionalProperties: false });

export const NumberingRuleBody = Type.Object({
  library: Type.String({ maxLength: 32, pattern: '^[a-z_]*$', description: 'a case kind (routine, frozen, cell, outside, ex_…) or empty for the default' }),
  name: Type.Optional(Type.String({ maxLength: 128 })),
  prefix: Type.String({ maxLength: 16 }),
  middle: Type.String({ maxLength: 16 }),
  connector: Type.Union(CONNECTORS.map((c) => Type.Literal(c))),
  length: Type.Integer({ minimum: 1, maximum: MAX_SERIAL_LENGTH }),
  regex: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
}, { additionalProperties: false });
