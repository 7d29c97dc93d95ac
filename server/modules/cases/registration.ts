import { randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { checkCaseDirectory } from './subspecialty.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import { APPLICATION_STATUS } from '../../../src/core/caseLifecycle.js';
import { numberMatchesRule } from '../../../src/core/pathologyNumber.js';
import { addTimeline, caseInScope, type CaseRow } from './lifecycle-queries.js';
import { allocateNumber, ruleFor } from './numbering.js';
import { caseFor, commitMove, requireRole, scopeOf, type LabDeps } from './transition.js';
import type { Static } from '@sinclair/typebox';
import { REGISTER_FIELDS, REGISTRATION_EXTRA, RegisterBody, type ApplyInput, type ClinicApplyInput, type RegisterInput } from './lifecycle-bodies.js';
import { undeclaredFields } from '../../../src/core/formRules.js';
import { validateWrite } from '../../resources/write-validation.js';
import { chargeCase } from '../prices/charges.js';
import { applicationHistory } from './applications.js';

const OPEN_APPLICATION: number[] = [APPLICATION_STATUS.applied, APPLICATION_STATUS.dispatched, APPLICATION_STATUS.received];

/** A unique-key violation from either database: a number someone took between our check and our insert. */
const isUniqueViolation = (e: unknown) => /unique|duplicate key/i.test(String((e as Error)?.message));

/** A number for an application the clinic files without one: the day and a random part (the unique index decides). */
const newApplyNumber = (now: Date) => `SQ${now.toISOString().slice(0, 10).replace(/-/g, '')}-${randomInt(36 ** 5).toString(36).toUpperCase().padStart(5, '0')}`;

/** The clinic's form must name the patient and at least one specimen; refused field by field in the user's words. */
function checkApplication(input: ClinicApplyInput): void {
  const blank = (v: string | undefined) => !v?.trim();
  const errors: Record<string, { key: 'lab.apply_patient_required' | 'lab.apply_specimen_required' }[]> = {};
  if (blank(input.patient_name)) errors.patient_name = [{ key: 'lab.apply_patient_required' }];
  if (blank(input.specimen_name)) errors.specimen_name = [{ key: 'lab.apply_specimen_required' }];
  if (Object.keys(errors).length) throw new AppError(422, 'error.validation', {}, errors);
}

/**
 * Spec §4 slide application, state 0 (applied): what the clinic asks the lab to examine. A number typed (or sent by
 * another system) must be free; without one the server gives one, drawing again in the unlikely case it is taken.
 */
export async function apply(deps: LabDeps, request: FastifyRequest, input: ClinicApplyInput) {
  checkApplication(input);
  const hospitalId = workingHospital(request);
  await requireRole(deps, request, 'apply', hospitalId, null);
  for (let attempt = 0; ; attempt++) {
    const number = input.apply_number ?? newApplyNumber(new Date());
    try {
      return await insertApplication(deps.db, hospitalId, { ...input, apply_number: number }, request.auth!.id);
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      if (input.apply_number || attempt >= 4) throw new AppError(409, 'lab.apply_number_taken', { number });
    }
  }
}

/** The specimens an application names (the clinic may list several: "胃窦、胃体"), for a registration that types none. */
export const specimensOfApplication = (app: { specimen_name: string | null }) =>
  (app.specimen_name ?? '').split(/[、,，;；\n]/).map((name) => name.trim()).filter(Boolean).map((name) => ({ name: name.slice(0, 255) }));

/**
 * The one write of a new application, whoever asks: the clinic through the API (`apply`, its user the applicant) or
 * the HIS with an HL7 order (modules/hl7, no user: `appliedBy` null), inside the caller's transaction when it has one.
 * A taken application number is the unique index's refusal (the caller words it).
 */
export async function insertApplication(db: Kysely<Database>, hospitalId: number, input: ApplyInput, appliedBy: number | null) {
  const now = new Date().toISOString();
  const { id } = await db.insertInto('case_applications').values({
    ...input, hospital_id: hospitalId, status: APPLICATION_STATUS.applied, case_type: input.case_type ?? 'routine',
    applied_by: appliedBy, case_id: null, reject_reason: null, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  return db.selectFrom('case_applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function openApplication(deps: LabDeps, request: FastifyRequest, id: number) {
  const row = await deps.db.selectFrom('case_applications').selectAll().where('id', '=', id).where('hospital_id', 'in', scopeOf(request)).executeTakeFirst();
  if (!row) throw new AppError(404, 'lab.application_not_found');
  if (!OPEN_APPLICATION.includes(row.status)) throw new AppError(409, 'lab.application_not_open');
  return row;
}

/** Closes an open application (conditional on the state read): the second of two at once is refused. */
async function closeApplication(trx: Kysely<Database>, app: { id: number; version: number }, set: { status: number; case_id?: number; reject_reason?: string }, now: string) {
  const res = await trx.updateTable('case_applications').set({ ...set, version: app.version + 1, updated_at: now })
    .where('id', '=', app.id).where('version', '=', app.version).executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new AppError(409, 'lab.changed');
}

/** Spec §4 application state -1 (rejected), with the reason. */
export async function rejectApplication(deps: LabDeps, request: FastifyRequest, id: number, reason: string) {
  const app = await openApplication(deps, request, id);
  await requireRole(deps, request, 'reject_application', app.hospital_id, null);
  await deps.db.transaction().execute((trx) => closeApplication(trx, app, { status: APPLICATION_STATUS.rejected, reject_reason: reason }, new Date().toISOString()));
  return deps.db.selectFrom('case_applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/**
 * Registration: the case is created with its specimens (awaiting receipt), from an application (which becomes
 * registered, state 3) or directly. The number is the library's next one, allocated in the same transaction,
 * or one typed by hand that must follow the library's rule (material from another hospital keeps its number).
 */
export async function register(deps: LabDeps, request: FastifyRequest, input: RegisterInput, opts: { applicationSpecimens?: boolean } = {}): Promise<CaseRow> {
  const { application_id: applicationId, specimens: typedSpecimens, pathology_number: typed, ...given } = input;
  const application = applicationId ? await openApplication(deps, request, applicationId) : undefined;
  // SlideApply's Register (`applicationSpecimens`): the specimens the clinic named; a form's registration types its own.
  const specimens = opts.applicationSpecimens && application ? specimensOfApplication(application) : typedSpecimens;
  if (!specimens.length) throw new AppError(422, 'lab.specimen_required');
  const hospitalId = application?.hospital_id ?? workingHospital(request);
  await requireRole(deps, request, 'register', hospitalId, null);
  // The registration form as the hospital has it (with the fields it added to cases): a field neither the command
  // nor the form knows is refused by name, before anything else.
  const form = await deps.registrationForm?.(hospitalId);
  const added = Object.keys(input).filter((k) => !REGISTER_FIELDS.has(k));
  const unknown = form ? undeclaredFields(form, Object.fromEntries(added.map((k) => [k, input[k]]))) : added;
  if (unknown.length) throw new AppError(422, 'error.validation', {}, Object.fromEntries(unknown.map((field) => [field, [{ key: 'validation.unknown_field', params: { field } }]])));
  // The form's rules (required fields, visibility, checks, an added field's type and options), as the full form
  // applies them in the browser; the patient of an application counts as given. The checked copy carries the
  // added fields' values as their types make them (a select's "1" for an integer field becomes 1).
  const checked: Record<string, unknown> = { ...input };
  if (form) {
    const fromApp = application ? Object.fromEntries(Object.entries(application).filter(([k, v]) => ['patient_name', 'gender', 'age', 'age_unit', 'outpatient_number', 'admission_number'].includes(k) && v !== null)) : {};
    const data: Record<string, unknown> = { ...fromApp, ...input, specimens };
    validateWrite(form, data, true, request.lang, { resolve: await deps.rulesFor(hospitalId), sent: Object.keys(input) });
    Object.assign(checked, Object.fromEntries(added.map((k) => [k, data[k]])));
  }
  // Spec §3 fields without a column and the hospital's added fields go to the case's extra.
  const extraValues = Object.fromEntries([...REGISTRATION_EXTRA, ...added].filter((k) => checked[k] !== undefined && checked[k] !== null && checked[k] !== '').map((k) => [k, checked[k]]));
  const fields = Object.fromEntries(Object.entries(given).filter(([k]) => REGISTER_FIELDS.has(k) && !(REGISTRATION_EXTRA as readonly string[]).includes(k))) as Omit<Static<typeof RegisterBody>, (typeof REGISTRATION_EXTRA)[number] | 'application_id' | 'specimens' | 'pathology_number'>;
  const caseType = input.case_type ?? application?.case_type ?? 'routine';
  await checkCaseDirectory(deps.db, hospitalId, input.subspecialty_id, request.auth!);
  const rule = await ruleFor(deps.db, hospitalId, caseType);
  const manual = typed?.trim();
  if (manual && !numberMatchesRule(manual, rule)) throw new AppError(422, 'lab.number_pattern', { number: manual });

  const now = new Date();
  const at = now.toISOString();
  const actor = request.auth!;
  const fromApplication = application ? {
    patient_name: application.patient_name, gender: application.gender, age: application.age, age_unit: application.age_unit,
    outpatient_number: application.outpatient_number, admission_number: application.admission_number,
    inspection_department: application.inspection_department, inspection_doctor: application.inspection_doctor,
    clinical_diagnosis: application.clinical_diagnosis,
  } : {};
  const to = { main_phase: 'registration', sub_phase: 'to_receive' };
  let id: number;
  try {
    id = await deps.db.transaction().execute(async (trx) => {
      // The first statement writes (the counter, or the case): see moveCase on SQLite's write lock.
      const number = manual || (await allocateNumber(trx, hospitalId, rule, now));
      const { id: caseId } = await trx.insertInto('cases').values({
        ...fromApplication, ...fields, hospital_id: hospitalId, pathology_number: number, case_type: caseType, library: caseType,
        expedite_status: fields.expedite_status ?? 0, specimen_name: specimens.map((s) => s.name).join('、'),
        apply_id: application?.id ?? null, ...to, phase_at: at, registration_at: at, registration_doctor: actor.id,
        extra: Object.keys(extraValues).length ? JSON.stringify(extraValues) : null, created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow();
      if (application) {
        await closeApplication(trx, application, { status: APPLICATION_STATUS.registered, case_id: caseId }, at);
        await applicationHistory(trx, caseId, application);
      }
      await trx.insertInto('case_specimens').values(specimens.map((s, i) => ({
        ...s, hospital_id: hospitalId, case_id: caseId, seq: i + 1, status: 'pending', created_at: at, updated_at: at,
      }))).execute();
      await chargeCase(trx, { hospitalId, caseId, by: actor.id, at }, caseType);
      await addTimeline(trx, hospitalId, caseId, { action: 'register', actor, to, detail: { pathology_number: number, application_id: application?.id ?? null, specimens: specimens.length } }, at);
      return caseId;
    });
  } catch (e) {
    if (manual && isUniqueViolation(e)) throw new AppError(409, 'lab.number_taken', { number: manual });
    throw e;
  }
  return caseInScope(deps.db, id, [hospitalId]);
}

/** Spec §6 "case ID update", §5 "new case ID must differ from old": the new number follows the library's rule and is free. */
export async function changeNumber(deps: LabDeps, request: FastifyRequest, caseId: number, newNumber: string): Promise<CaseRow> {
  const current = await caseFor(deps, request, 'change_number', caseId);
  const number = newNumber.trim();
  if (number === current.pathology_number) throw new AppError(422, 'lab.number_same');
  const rule = await ruleFor(deps.db, current.hospital_id, current.library ?? current.case_type);
  if (!numberMatchesRule(number, rule)) throw new AppError(422, 'lab.number_pattern', { number });
  try {
    return await commitMove(deps, request, current, { action: 'change_number', patch: { pathology_number: number }, detail: { from: current.pathology_number, to: number } });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError(409, 'lab.number_taken', { number });
    throw e;
  }
}
