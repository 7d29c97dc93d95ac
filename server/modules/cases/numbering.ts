import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { DEFAULT_RULE, formatNumber, middleOf, type NumberingRule } from '../../../src/core/pathologyNumber.js';

type Trx = Kysely<Database>;
export type StoredRule = NumberingRule & { id: number; library: string };

/** The library's rule in the hospital, else the hospital's default ('' library), created from DEFAULT_RULE on first use. */
export async function ruleFor(db: Db, hospitalId: number, library: string): Promise<StoredRule> {
  const rules = await db.selectFrom('numbering_rules').selectAll().where('hospital_id', '=', hospitalId).where('library', 'in', [library, '']).execute();
  const found = rules.find((r) => r.library === library) ?? rules.find((r) => r.library === '');
  if (found) return found;
  const now = new Date().toISOString();
  // Two first registrations at once both try; the unique (hospital, library) key keeps one row.
  await db.insertInto('numbering_rules').values({ hospital_id: hospitalId, library: '', name: null, ...DEFAULT_RULE, regex: null, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['hospital_id', 'library']).doNothing()).execute();
  return db.selectFrom('numbering_rules').selectAll().where('hospital_id', '=', hospitalId).where('library', '=', '').executeTakeFirstOrThrow();
}

/**
 * The next pathology number of `rule`, inside the registering transaction: the counter row of the rule and
 * period is created if missing and incremented with one UPDATE … RETURNING, which the database serialises
 * (PostgreSQL's row lock, SQLite's write lock) across connections and processes, so no value is handed out
 * twice; a rolled-back registration takes its increment back with it, so none is skipped. A value whose number
 * was already typed by hand for another case is passed over (the only skip the rule allows).
 */
export async function allocateNumber(trx: Trx, hospitalId: number, rule: StoredRule, at: Date): Promise<string> {
  const period = middleOf(rule, at);
  await trx.insertInto('numbering_counters').values({ rule_id: rule.id, period, value: 0 })
    .onConflict((oc) => oc.columns(['rule_id', 'period']).doNothing()).execute();
  for (;;) {
    const { value } = await trx.updateTable('numbering_counters').set((eb) => ({ value: eb('value', '+', 1) }))
      .where('rule_id', '=', rule.id).where('period', '=', period).returning('value').executeTakeFirstOrThrow();
    const number = formatNumber(rule, period, Number(value));
    if (number === undefined) throw new AppError(409, 'lab.numbering_exhausted', { library: rule.library || '*' });
    // Taken in any directory of the hospital, seen or not by the registering user: the row scope left out here
    // (the same transaction), as only whether it is taken is learnt, never the case.
    const taken = await trx.withoutPlugins().selectFrom('cases').select('id').where('hospital_id', '=', hospitalId).where('pathology_number', '=', number).executeTakeFirst();
    if (!taken) return number;
  }
}

export const rulesOf = (db: Db, hospitalId: number) =>
  db.selectFrom('numbering_rules').selectAll().where('hospital_id', '=', hospitalId).orderBy('library').execute();

/** Creates or replaces the hospital's rule for a library; the counters stay (a new pattern starts its own periods). */
export async function saveRule(db: Db, hospitalId: number, library: string, rule: NumberingRule & { name?: string | null }): Promise<void> {
  const now = new Date().toISOString();
  const values = { prefix: rule.prefix, middle: rule.middle, connector: rule.connector, length: rule.length, regex: rule.regex ?? null, name: rule.name ?? null, updated_at: now };
  await db.insertInto('numbering_rules').values({ hospital_id: hospitalId, library, ...values, created_at: now })
    .onConflict((oc) => oc.columns(['hospital_id', 'library']).doUpdateSet(values)).execute();
}
