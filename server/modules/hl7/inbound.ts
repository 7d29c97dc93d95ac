import { randomBytes } from 'node:crypto';
import type { HL7Message } from 'hl7v2';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Db } from '../../db/connect.js';
import { insertApplication } from '../cases/registration.js';
import { ackOf, headerOf, Hl7Refusal, parseMessage, type Header } from './message.js';
import { applicationOf } from './orders.js';
import { patientOf } from './patient-fields.js';
import { applicationNumberTaken, hospitalByCode, insertMessage, isUniqueViolation, logHl7Write, messageByKey, savePatient } from './queries.js';

export interface InboundDeps {
  db: Db;
  /** HL7_HOSPITAL: the hospital of a message whose MSH-4 names none of ours. */
  hospitalCode?: string;
  log: { error(obj: object, msg: string): void };
}

/** Registrations kept for patient look-ups: admit, register an outpatient, update patient information. */
const ADT_EVENTS = new Set(['A01', 'A04', 'A08']);

const newControlId = () => `DSMS${Date.now().toString(36)}${randomBytes(3).toString('hex')}`.toUpperCase();

/**
 * One message from the HIS, answered with its acknowledgement (original mode). ORM^O01 files a new application
 * (the API's own insert, cases/registration.ts); ADT^A01/A04/A08 keep the patient for registration's look-ups
 * (the `hl7` HIS adapter). Both are written in one transaction with the message's log row, so a message is either
 * taken whole or not at all, and its operation log line says what it made. AE or AR with the reason for what cannot
 * be taken. A message whose control id this sender already used gets the answer it got then: nothing is made twice.
 */
export async function takeMessage(deps: InboundDeps, raw: string): Promise<string> {
  let msg: HL7Message;
  let header: Header;
  try {
    msg = parseMessage(raw);
    header = headerOf(msg);
    if (!header.controlId) throw new Hl7Refusal('AR', 101, 'message control id (MSH-10) missing');
  } catch (err) {
    const refusal = err instanceof Hl7Refusal ? err : new Hl7Refusal('AR', 102, (err as Error).message);
    const ack = ackOf(null, refusal.ack, newControlId(), refusal.message, refusal.code);
    await insertMessage(deps.db, { direction: 'in', hospital_id: null, message_type: '?', control_id: '', peer: '', status: 'rejected', ack_code: refusal.ack, error: refusal.message, raw, ack });
    return ack;
  }
  const sender = `${header.sendingApplication}^${header.sendingFacility}`.slice(0, 255);
  const type = `${header.messageCode}^${header.triggerEvent}`.slice(0, 32);
  const key = `in:${sender}:${header.controlId}`.slice(0, 400);
  const base = { direction: 'in' as const, message_type: type, control_id: header.controlId.slice(0, 64), peer: sender, raw };

  const seen = await messageByKey(deps.db, key);
  if (seen?.ack) return seen.ack;

  const hospital = await hospitalByCode(deps.db, header.sendingFacility) ?? (deps.hospitalCode ? await hospitalByCode(deps.db, deps.hospitalCode) : undefined);
  try {
    if (!hospital) throw new Hl7Refusal('AE', 204, `sending facility "${header.sendingFacility}" is none of our hospitals (HL7_HOSPITAL not set)`);
    const handler = handlerOf(header);
    return await deps.db.transaction().execute(async (trx) => {
      const outcome = await handler(trx, msg, hospital.id);
      const ack = ackOf(header, 'AA', newControlId(), outcome.text);
      const id = await insertMessage(trx, { ...base, hospital_id: hospital.id, status: 'accepted', ack_code: 'AA', detail: JSON.stringify(outcome.detail), ack, dedupe_key: key });
      await logHl7Write(trx, { hospitalId: hospital.id, sender, route: `hl7:${type}`, target: `mllp:${sender}`, status: 200, detail: { ...outcome.detail, control_id: header.controlId, message_id: id } });
      return ack;
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      // The same message taken meanwhile on another connection: its answer. Else an application number taken meanwhile.
      const again = await messageByKey(deps.db, key);
      if (again?.ack) return again.ack;
      return refuse(deps, base, key, hospital?.id ?? null, header, new Hl7Refusal('AE', 205, 'placer order number already used for an application'));
    }
    if (err instanceof Hl7Refusal) return refuse(deps, base, key, hospital?.id ?? null, header, err);
    deps.log.error({ err, controlId: header.controlId, type }, 'HL7 message failed');
    // Not kept under its control id: the sender's resend is taken afresh, once whatever failed is fixed.
    const ack = ackOf(header, 'AE', newControlId(), 'internal error', 207);
    await insertMessage(deps.db, { ...base, hospital_id: hospital?.id ?? null, status: 'error', ack_code: 'AE', error: String((err as Error).message).slice(0, 2000), ack });
    return ack;
  }
}

/** A refusal is the message's final answer: kept under its control id, so a resend is answered the same. */
async function refuse(deps: InboundDeps, base: Omit<Parameters<typeof insertMessage>[1], 'status' | 'hospital_id'>, key: string, hospitalId: number | null, header: Header, refusal: Hl7Refusal): Promise<string> {
  const ack = ackOf(header, refusal.ack, newControlId(), refusal.message, refusal.code);
  try {
    await insertMessage(deps.db, { ...base, hospital_id: hospitalId, status: refusal.ack === 'AR' ? 'rejected' : 'error', ack_code: refusal.ack, error: refusal.message, ack, dedupe_key: key });
    return ack;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return (await messageByKey(deps.db, key))?.ack ?? ack;
  }
}

type Handler = (trx: Kysely<Database>, msg: HL7Message, hospitalId: number) => Promise<{ text: string; detail: Record<string, unknown> }>;

function handlerOf(header: Header): Handler {
  if (header.messageCode === 'ORM') {
    if (header.triggerEvent !== 'O01') throw new Hl7Refusal('AR', 201, `event ${header.triggerEvent} of ORM is not supported`);
    return order;
  }
  if (header.messageCode === 'ADT') {
    if (!ADT_EVENTS.has(header.triggerEvent)) throw new Hl7Refusal('AR', 201, `event ${header.triggerEvent} of ADT is not supported (A01, A04, A08)`);
    return registration;
  }
  throw new Hl7Refusal('AR', 200, `message type ${header.messageCode || '(empty)'} is not supported (ORM^O01, ADT^A01/A04/A08)`);
}

const order: Handler = async (trx, msg, hospitalId) => {
  const input = applicationOf(msg, new Date());
  if (await applicationNumberTaken(trx, hospitalId, input.apply_number)) throw new Hl7Refusal('AE', 205, `placer order number ${input.apply_number} already used for an application`);
  const app = await insertApplication(trx, hospitalId, input, null);
  return { text: `application ${app.apply_number} filed`, detail: { application_id: app.id, apply_number: app.apply_number } };
};

const registration: Handler = async (trx, msg, hospitalId) => {
  const patient = patientOf(msg, new Date());
  if (!patient.outpatient_number && !patient.admission_number) throw new Hl7Refusal('AE', 101, 'no outpatient or admission number (PV1-19, PID-3)');
  if (!patient.patient_name) throw new Hl7Refusal('AE', 101, 'patient name (PID-5) missing');
  await savePatient(trx, hospitalId, patient, null);
  return { text: 'patient registered', detail: { outpatient_number: patient.outpatient_number, admission_number: patient.admission_number } };
};
