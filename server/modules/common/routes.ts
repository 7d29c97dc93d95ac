import fs from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import type { TypedApp } from '../../http/types.js';
import { getSetting } from '../settings/queries.js';
import { declaredSettings } from '../settings/declared.js';
import { groupHospitals, hospitalsOf } from '../users/queries.js';
import { okResponse } from '../../http/responses.js';

const VERSION = '0.1.0';

/** The stored `lang` setting (JSON text); zh-CN, the spec's default, when absent or unreadable. */
function languageOf(value: string | undefined): string {
  try {
    const v = value === undefined ? null : JSON.parse(value);
    return v === 'en-US' ? 'en-US' : 'zh-CN';
  } catch {
    return 'zh-CN';
  }
}

/**
 * Spec §7 common calls: the hash of the front-end build being served (the browser reloads when it differs from
 * what it last saw); the base facts a signed-in page starts from (`getBaseInfo`); which settings exist and who reads
 * them (`setting/type`).
 */
export function commonRoutes(app: TypedApp, distDir: string, db: Db): void {
  const read = () => {
    try {
      return fs.readFileSync(path.join(distDir, 'COMMITHASH'), 'utf8').trim();
    } catch {
      return 'dev';
    }
  };
  app.get('/api/COMMITHASH', { config: { access: 'public' }, schema: { tags: ['common'], response: okResponse() } }, async () => ok(read()));

  app.get('/api/common/getBaseInfo', { config: { access: 'user', audit: false }, schema: { tags: ['common'], response: okResponse() } }, async (request) => {
    const me = request.auth!;
    const [hospitals, lang] = await Promise.all([hospitalsOf(db, me.id), getSetting(db, 'lang')]);
    const current = hospitals.find((h) => h.id === me.hospitalId) ?? hospitals[0] ?? null;
    return ok({
      version: VERSION, commit_hash: read(), server_time: new Date().toISOString(),
      default_lang: languageOf(lang?.value),
      hospital: current, hospitals,
    });
  });

  // The hospitals of the group by name, for anyone signed in: a specimen transport names the hospital it goes to
  // (schemas/resources/logistics_orders.json, `lookup:hospitals`), which its sender need not belong to.
  app.get('/api/common/hospitals', { config: { access: 'user', audit: false }, schema: { tags: ['common'], response: okResponse() } }, async () =>
    ok(await groupHospitals(db)));

  // Spec §7 setting/type: the declared settings of a visibility (public: before login; user: signed in), no values.
  app.get('/api/common/setting/type', {
    config: { access: 'user', audit: false },
    schema: { tags: ['settings'], querystring: Type.Object({ type: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('user')])) }), response: okResponse() },
  }, async (request) => ok(declaredSettings().filter((s) => !request.query.type || s.type === request.query.type)));
}
