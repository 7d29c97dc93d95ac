import type { Kysely } from 'kysely';

/** The in-app links system messages have carried to a case (cases/slide-making.ts, diagnosis/workflow.ts). */
const CASE_LINK = /^\/(?:case|diagnosis)\/(\d{1,10})$/;

/**
 * The case a message is about (spec §6 directories): a user outside the case's subspecialty directory is not shown
 * a message naming it. Messages written before carry the case only in their link; it is read from there once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('case_id', 'integer', (c) => c.references('cases.id').onDelete('set null')).execute();
  const linked = await db.selectFrom('messages').select(['id', 'link'])
    .where((eb) => eb.or([eb('link', 'like', '/case/%'), eb('link', 'like', '/diagnosis/%')])).execute();
  const byCase = new Map<number, number[]>();
  for (const row of linked as { id: number; link: string }[]) {
    const m = CASE_LINK.exec(row.link);
    if (m) byCase.set(Number(m[1]), [...(byCase.get(Number(m[1])) ?? []), row.id]);
  }
  const known = byCase.size ? new Set((await db.selectFrom('cases').select('id').where('id', 'in', [...byCase.keys()]).execute()).map((r) => Number(r.id))) : new Set();
  for (const [caseId, ids] of byCase) {
    if (known.has(caseId)) await db.updateTable('messages').set({ case_id: caseId }).where('id', 'in', ids).execute();
  }
  await db.schema.createIndex('messages_case').on('messages').column('case_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('messages_case').ifExists().execute();
  await db.schema.alterTable('messages').dropColumn('case_id').execute();
}
