import type { Kysely, Insertable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database, Hl7MessageTable } from '../../db/schema.js';
import type { HisPatient } from '../his/adapter.js';

type Trx = Kysely<Database>;

/** A unique-key violation from either database (a message or an application number taken meanwhile). */
export const isUniqueViolation = (e: unknown) => /unique|duplicate key/i.test(String((e as Error)?.message));

export type NewHl7Message = Omit<Insertable<Hl7MessageTable>, 'created_at' | 'updated_at'>;

export async function insertMessage(db: Db | Trx, row: NewHl7Message): Promise<number> {
  const now = new Date().toISOString();
  const { id } = await db.insertInto('hl7_messages').values({ ...row, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  return id;
}

export const messageByKey = (db: Db | Trx, key: string) =>
  db.selectFrom('hl7_messages').select(['id', 'ack', 'status']).where('dedupe_key', '=', key).executeTakeFirst();

export const messageById = (db: Db | Trx, id: number) => db.selectFrom('hl7_messages').selectAll().where('id', '=', id).executeTakeFirst();

export async function updateMessage(db: Db | Trx, id: number, set: Partial<Pick<Hl7MessageTable, 'status' | 'ack_code' | 'error' | 'ack' | 'detail' | 'dedupe_key'>> & { attempts?: number }): Promise<void> {
  await db.updateTable('hl7_messages').set({ ...set, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
}

export const hospitalByCode = (db: Db | Trx, code: string) => db.selectFrom('hospitals').select(['id', 'code']).where('code', '=', code).executeTakeFirst();

export const applicationNumberTaken = async (db: Trx, hospitalId: number, number: string) =>
  Boolean(await db.selectFrom('case_applications').select('id').where('hospital_id', '=', hospitalId).where('apply_number', '=', number).executeTakeFirst());

/** The HIS's registration of a patient under each of their numbers: a later A08 replaces what an A01/A04 said. */
export async function savePatient(db: Trx, hospitalId: number, patient: HisPatient, messageId: number | null): Promise<void> {
  const now = new Date().toISOString();
  const keys = [['outpatient', patient.outpatient_number], ['admission', patient.admission_number]] as const;
  for (const [kind, number] of keys) {
    if (!number) continue;
    const row = { hospital_id: hospitalId, number_kind: kind, number, patient: JSON.stringify(patient), message_id: messageId, updated_at: now };
    await db.insertInto('hl7_patients').values(row)
      .onConflict((oc) => oc.columns(['hospital_id', 'number_kind', 'number']).doUpdateSet({ patient: row.patient, message_id: messageId, updated_at: now }))
      .execute();
  }
}

/** The patient the HIS registered under the number in this hospital, if any. */
export async function patientByNumber(db: Db, hospitalId: number, kind: 'outpatient' | 'admission', number: string): Promise<HisPatient | null> {
  const row = await db.selectFrom('hl7_patients').select('patient').where('hospital_id', '=', hospitalId).where('number_kind', '=', kind).where('number', '=', number).executeTakeFirst();
  return row ? (JSON.parse(row.patient) as HisPatient) : null;
}

/** A write made on the HIS's behalf, as an operation log line of the hospital (the audit trail of writes). */
export async function logHl7Write(db: Db | Trx, entry: { hospitalId: number | null; sender: string; route: string; target: string; status: number; detail: Record<string, unknown> }): Promise<void> {
  const payload = JSON.stringify(entry.detail);
  await db.insertInto('operation_logs').values({
    user_id: null, username: `HL7 ${entry.sender}`.slice(0, 64), method: 'HL7', path: entry.target.slice(0, 2000), route: entry.route,
    status_code: entry.status, payload: payload.length > 4000 ? `${payload.slice(0, 4000)}…` : payload, ip: null,
    created_at: new Date().toISOString(), hospital_id: entry.hospitalId,
  }).execute();
}
