import type { Db } from '../connect.js';
import { hashPassword } from '../../modules/auth/passwords.js';
import { seedDemoCases } from './demo-cases.js';
import { seedDemoCollections } from './demo-collections.js';
import { seedDemoTeaching } from './demo-teaching.js';
import { seedDemoSlides } from './demo-slides.js';
import type { Storage } from '../../storage/storage.js';
import { shippedStructure } from './structure.js';
import { seedDemoPrices } from './demo-prices.js';
import { seedDemoSubspecialties } from './demo-subspecialties.js';

/** Demo data only (DSMS_DEMO=1): it stands on the structure seed (structure.ts), whose roles it gives accounts. */

export const DEMO_PASSWORDS = { admin: 'dsms-admin', others: 'dsms-demo' } as const;

const realnames: Record<string, string> = {
  admin: '系统管理员', registrar: '王登记', sampler: '李取材', technician: '张技术', primary: '陈初诊', auditor: '刘复诊',
  signer: '赵签发', allocator: '孙分配', qc: '周质控', scanner: '吴扫描', clinician: '郑临床',
};

/** Two hospitals and one account per role, for trying the product and for the e2e tests. */
export async function seedDemo(db: Db): Promise<void> {
  if (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) return;
  const now = new Date().toISOString();
  const hospitals = await db.insertInto('hospitals').values([
    { code: 'H001', name: '示范医院总院', en_name: 'Demo General Hospital', logo: null, created_at: now },
    { code: 'H002', name: '示范医院分院', en_name: 'Demo Branch Hospital', logo: null, created_at: now },
  ]).returning('id').execute();

  const roles = await db.selectFrom('roles').select(['id', 'identification']).execute();
  const [adminHash, demoHash] = await Promise.all([hashPassword(DEMO_PASSWORDS.admin), hashPassword(DEMO_PASSWORDS.others)]);
  for (const role of shippedStructure().roles) {
    if (!role.user) continue;
    const { id } = await db.insertInto('users').values({
      name: role.user, realname: realnames[role.user] ?? role.user, password_hash: role.user === 'admin' ? adminHash : demoHash,
      email: `${role.user}@demo.dsms`, phone: null, status: 1, locked: 0, expires_at: null, failed_attempts: 0,
      login_locked_until: null, extra: '{}', created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const roleId = roles.find((r) => r.identification === role.identification)!.id;
    await db.insertInto('user_roles').values({ user_id: id, role_id: roleId }).execute();
    // The administrator and doctors work in both hospitals, so the switcher has something to switch.
    const inBoth = ['admin', 'primary', 'auditor', 'signer'].includes(role.user);
    await db.insertInto('user_hospitals').values(hospitals.slice(0, inBoth ? 2 : 1).map((h) => ({ user_id: id, hospital_id: h.id }))).execute();
  }
}

/** `dataDir`: where demo slide files go; without one (tests) no slides are seeded. Needs the structure seeded first. */
export async function seedDemoData(db: Db, dataDir?: string, storage?: Storage): Promise<void> {
  await seedDemo(db);
  await seedDemoCases(db);
  await seedDemoPrices(db);
  await seedDemoSubspecialties(db);
  if (dataDir) await seedDemoSlides(db, dataDir, storage);
  await seedDemoCollections(db);
  await seedDemoTeaching(db);
}
