import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect } from '../../server/db/connect.js';
import { migrateUpTo } from '../../server/db/migrate.js';
import { translate } from '../../server/i18n/translate.js';
import { call, databases, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';

const SETTING = '/api/common/setting';
const DAY = 24 * 3600 * 1000;

/** Issue 8 item 1: secrets out of reach of the settings API, and slide download links that cannot be forged or outlive a revocation. */
describe.each(databases)('secrets and signed download links [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let hospitals: number[];
  let primary: number;
  const slides: Record<string, number> = {};

  /** A slide row with a small file under slides/, in `hospital`. */
  const placeSlide = async (name: string, hospital: number) => {
    const file = path.join(dataDir, 'slides', `${name}.bin`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `bytes of ${name}`);
    const now = new Date().toISOString();
    const { id } = await h.db.insertInto('slides').values({
      hospital_id: hospital, case_id: null, name, file_path: `slides/${name}.bin`, file_size: 9, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
    } as never).returning('id').executeTakeFirstOrThrow();
    return id as number;
  };

  /** What a signed-in user gets from "download": the link, parsed. */
  const linkFor = async (slide: number, username = 'primary') => {
    const res = await call(app, 'POST', `/api/data/kfb/download/${slide}`, { token: await tokenFor(app, username), headers: { 'x-show-all-data': '1' } });
    expect(res.statusCode, res.body).toBe(200);
    return new URL(res.json().data.url, 'http://dsms.local');
  };
  const fetchLink = (url: URL) => app.inject({ method: 'GET', url: url.pathname + url.search, headers: { 'user-language': 'en-US' } });

  /**
   * The forger: the signing secret, wherever the server keeps it (read straight from the database, as an
   * attacker who got it once would hold it), applied to values of their choosing, in the link's own format.
   */
  const forge = async (genuine: URL, slide: number, user: number, expires: number, keyId?: string) => {
    const kid = keyId ?? genuine.searchParams.get('kid');
    let secret: string | undefined;
    if (kid) {
      secret = (await sql<{ secret: string }>`select secret from signing_keys where key_id = ${kid}`.execute(h.db)).rows[0]?.secret;
    } else {
      secret = (await h.db.selectFrom('settings').select('value').where('key', '=', 'slide_download_key').executeTakeFirst())?.value;
    }
    expect(secret, 'the signing secret').toBeTruthy();
    const signed = kid ? `${kid}.${slide}.${user}.${expires}` : `${slide}.${user}.${expires}`;
    const sig = createHmac('sha256', Buffer.from(secret!, 'hex')).update(signed).digest('base64url');
    const url = new URL(`/api/data/kfb/file/${slide}`, genuine);
    if (kid) url.searchParams.set('kid', kid);
    url.searchParams.set('user', String(user));
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('sig', sig);
    return url;
  };

  const refusedAsInvalid = (res: { statusCode: number; json(): { message: string } }) => {
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(translate('en-US', 'slide.download_link_invalid'));
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-secrets-'));
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir });
    await app.ready();
    hospitals = (await h.db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id);
    primary = await userId(h.db, 'primary');
    slides.first = await placeSlide('in-first', hospitals[0]!);
    slides.second = await placeSlide('in-second', hospitals[1]!);
  });
  afterAll(async () => {
    await app.close();
    await h.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps the signing key and every undeclared setting out of the settings API, for readers and writers', async () => {
    // The key exists once a link was signed.
    await linkFor(slides.first!);
    const clinician = await tokenFor(app, 'clinician');
    const admin = await tokenFor(app, 'admin');
    const read = (token: string, key: string) => call(app, 'GET', `${SETTING}/get?settings_key=${key}`, { token, lang: 'en-US' });
    for (const token of [clinician, admin]) {
      const res = await read(token, 'slide_download_key');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: translate('en-US', 'setting.not_found', { key: 'slide_download_key' }) });
    }
    // A row the API does not declare answers as missing, even one flagged public.
    await h.db.insertInto('settings').values({ key: 'smtp_relay', value: '{"password":"p"}', is_public: 1, updated_at: new Date().toISOString() }).execute();
    expect((await read(admin, 'smtp_relay')).statusCode).toBe(404);
    expect((await call(app, 'GET', SETTING)).json().data.data).not.toHaveProperty('smtp_relay');
    // Writers may not invent keys that later become readable, nor make a declared one public.
    const invented = await call(app, 'POST', SETTING, { token: admin, lang: 'en-US', payload: { settings_key: 'slide_download_key', settings_value: 'ab' } });
    expect(invented.statusCode).toBe(404);
    await call(app, 'POST', SETTING, { token: admin, payload: { settings_key: 'system_config', settings_value: '{"network_protocol":"http","hisport":8001,"upload_protocol":"http"}', is_public: true } });
    expect((await call(app, 'GET', SETTING)).json().data.data).not.toHaveProperty('system_config');
    // What the client reads still answers: public settings, and system_config with its secrets masked for a clinician.
    expect((await call(app, 'GET', SETTING)).json().data.data).toMatchObject({ lang: 'zh-CN' });
    const config = await read(clinician, 'system_config');
    expect(config.statusCode).toBe(200);
    expect(JSON.parse(config.json().data)).toMatchObject({ network_protocol: 'http' });
  });

  it('drops the download key an older release kept in settings when the database is upgraded', async () => {
    let schema: string | undefined;
    if (kind === 'postgres') {
      schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
    }
    const db = schema ? connect({ databaseUrl: process.env.TEST_DATABASE_URL, pgSchema: schema }) : connect({ sqliteFile: ':memory:' });
    try {
      await migrateUpTo(db, '0008_slide_sections', schema);
      await db.insertInto('settings').values({ key: 'slide_download_key', value: 'ab'.repeat(32), is_public: 0, updated_at: new Date().toISOString() }).execute();
      await migrateUpTo(db, undefined, schema);
      expect(await db.selectFrom('settings').select('key').where('key', '=', 'slide_download_key').executeTakeFirst()).toBeUndefined();
    } finally {
      if (schema) await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(db);
      await db.destroy();
    }
  });

  it('refuses a forged link with a ten-year expiry, and any expiry further ahead than a link lives', async () => {
    const genuine = await linkFor(slides.first!);
    expect((await fetchLink(genuine)).statusCode).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    refusedAsInvalid(await fetchLink(await forge(genuine, slides.first!, primary, now + 10 * 365 * 86400)));
    refusedAsInvalid(await fetchLink(await forge(genuine, slides.first!, primary, now + 600)));
  });

  it('refuses a link for a user who does not exist, is disabled, lacks slide_download or left the slide\'s hospital', async () => {
    const genuine = await linkFor(slides.second!);
    const expires = Number(genuine.searchParams.get('expires'));
    // A user id that does not exist, and one without slide_download (the clinician), each with a valid signature.
    refusedAsInvalid(await fetchLink(await forge(genuine, slides.second!, 999_999, expires)));
    refusedAsInvalid(await fetchLink(await forge(genuine, slides.second!, await userId(h.db, 'clinician'), expires)));

    // The genuine link stops working the moment its user is disabled, and works again once enabled.
    await h.db.updateTable('users').set({ status: 0 }).where('id', '=', primary).execute();
    try {
      refusedAsInvalid(await fetchLink(genuine));
    } finally {
      await h.db.updateTable('users').set({ status: 1 }).where('id', '=', primary).execute();
    }
    expect((await fetchLink(genuine)).statusCode).toBe(200);

    // … or loses slide_download: the roles that grant it are taken away.
    const roles = await h.db.selectFrom('user_roles').selectAll().where('user_id', '=', primary).execute();
    await h.db.deleteFrom('user_roles').where('user_id', '=', primary).execute();
    try {
      refusedAsInvalid(await fetchLink(genuine));
    } finally {
      await h.db.insertInto('user_roles').values(roles).execute();
    }

    // … or is removed from the slide's hospital.
    await h.db.deleteFrom('user_hospitals').where('user_id', '=', primary).where('hospital_id', '=', hospitals[1]!).execute();
    try {
      refusedAsInvalid(await fetchLink(genuine));
    } finally {
      await h.db.insertInto('user_hospitals').values({ user_id: primary, hospital_id: hospitals[1]! }).execute();
    }
    expect((await fetchLink(genuine)).statusCode).toBe(200);
  });

  it('rotates the signing key daily: a link signed just before keeps working, a retired key signs nothing new', async () => {
    const t0 = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: t0 });
    const first = await linkFor(slides.first!);
    // Half a minute before the key is a day old: still the key that signs.
    vi.setSystemTime(t0 + DAY - 30_000);
    const lastOfOld = await linkFor(slides.first!);
    expect(lastOfOld.searchParams.get('kid')).toBe(first.searchParams.get('kid'));
    // Half a minute after: a new key signs, and the old one still verifies the link it signed last.
    vi.setSystemTime(t0 + DAY + 30_000);
    const rotated = await linkFor(slides.first!);
    expect(rotated.searchParams.get('kid')).toBeTruthy();
    expect(rotated.searchParams.get('kid')).not.toBe(first.searchParams.get('kid'));
    expect((await fetchLink(lastOfOld)).statusCode).toBe(200);
    expect((await fetchLink(rotated)).statusCode).toBe(200);
    // Once its last links have expired, the old key verifies nothing, even a fresh signature by its secret.
    vi.setSystemTime(t0 + DAY + 200_000);
    const now = Math.floor(Date.now() / 1000);
    refusedAsInvalid(await fetchLink(await forge(first, slides.first!, primary, now + 60)));
    expect((await fetchLink(await forge(rotated, slides.first!, primary, now + 60))).statusCode).toBe(200);
  });
});
