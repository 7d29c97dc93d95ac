import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connect.js';
import { hasPermission } from '../../http/access.js';
import { ok } from '../../http/envelope.js';
import { maskSecretsInText } from '../../http/secrets.js';
import { notFound } from '../../http/errors.js';
import { getSetting, publicSettings, putSetting } from './queries.js';

const KEY = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.-]+$' });

export function settingRoutes(app: FastifyInstance, db: Db): void {
  // Spec §7: the reader takes data.data (lang, hospital_logo, dingding_login_app_id, …).
  app.get('/api/common/setting', { config: { access: 'public' }, schema: { tags: ['settings'] } }, async () =>
    ok({ data: await publicSettings(db) }));

  // Spec §7: the value comes back as the stored JSON string (e.g. system_config). Only those who may
  // change settings see secrets such as ftppassword; everyone else gets them masked.
  app.get('/api/common/setting/get', {
    config: { access: 'user' },
    schema: { tags: ['settings'], querystring: Type.Object({ settings_key: KEY }) },
  }, async (request) => {
    const { settings_key } = request.query as { settings_key: string };
    const row = await getSetting(db, settings_key);
    if (!row) throw notFound('setting.not_found', { key: settings_key });
    return ok(hasPermission(request.auth!, 'system_setting') ? row.value : maskSecretsInText(row.value));
  });

  app.post('/api/common/setting', {
    config: { access: { permission: 'system_setting' } },
    schema: {
      tags: ['settings'],
      body: Type.Object({ settings_key: KEY, settings_value: Type.Unknown(), is_public: Type.Optional(Type.Boolean()) }),
    },
  }, async (request) => {
    const { settings_key, settings_value, is_public } = request.body as { settings_key: string; settings_value: unknown; is_public?: boolean };
    await putSetting(db, settings_key, settings_value ?? null, is_public);
    return ok({ settings_key });
  });
}
