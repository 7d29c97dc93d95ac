import type { CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * The department's attendance and duty rosters (issue 32, spec §1, §5, §9), built as schemas and rule files:
 * `attendance_groups` (a group of people who keep one roster), `attendance_members` (its people, each maybe an account),
 * `attendance_shifts` (a shift: one, two or three commutes a day, each an on and an off time, HH:mm),
 * `duty_rosters` (a group's attendance cycle: its name, first day and length in days) and `duty_entries` (who keeps
 * which shift on which day of a roster). What a row may hold (names, commutes, times in order, a cycle of at most 31
 * days, no change to a past day's duty) is data of schemas/rules/attendance.json; the columns only hold it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (pg ? 'serial' : 'integer') as 'integer';
  const table = (name: string) => db.schema.createTable(name)
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull().references('hospitals.id').onDelete('cascade'));
  const stamps = (t: CreateTableBuilder<string, any>) => t
    .addColumn('remark', 'varchar(500)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull());
  await stamps(table('attendance_groups')
    .addColumn('name', 'varchar(64)', (c) => c.notNull()))
    .execute();
  await stamps(table('attendance_members')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('attendance_groups.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'integer'))
    .execute();
  await stamps(table('attendance_shifts')
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('commutes', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('on_1', 'varchar(5)')
    .addColumn('off_1', 'varchar(5)')
    .addColumn('on_2', 'varchar(5)')
    .addColumn('off_2', 'varchar(5)')
    .addColumn('on_3', 'varchar(5)')
    .addColumn('off_3', 'varchar(5)'))
    .execute();
  await stamps(table('duty_rosters')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('attendance_groups.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('start_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('cycle_days', 'integer', (c) => c.notNull()))
    .execute();
  await stamps(table('duty_entries')
    .addColumn('roster_id', 'integer', (c) => c.notNull().references('duty_rosters.id').onDelete('cascade'))
    .addColumn('member_id', 'integer', (c) => c.notNull().references('attendance_members.id').onDelete('cascade'))
    .addColumn('duty_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('shift_id', 'integer', (c) => c.notNull().references('attendance_shifts.id').onDelete('cascade')))
    .execute();
  await db.schema.createIndex('duty_entries_member_day').on('duty_entries').columns(['roster_id', 'member_id', 'duty_date']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['duty_entries', 'duty_rosters', 'attendance_shifts', 'attendance_members', 'attendance_groups']) await db.schema.dropTable(t).execute();
}
