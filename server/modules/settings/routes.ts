import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { hasPermission } from '../../http/access.js';
import { ok } from '../../http/envelope.js';
import { maskSecretsInText } from '../../http/secrets.js';
import { AppError, notFound } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import { settingVisibility } from './declared.js';
import { getSetting, publicSettings, putSetting } from './queries.js';
import { validateWrite } from '../../resources/write-validation.js';
import type { FormSchema } from '../../../src/core/pageSchema.js';
import type { RuleResolver } from '../../../src/core/rules.js';
import { okResponse } from '../../http/responses.js';

/** A setting is configuration (a logo as a data URL at most), not a file store. */
const SETTING_MAX_CHARS = 2 * 1024 * 1024;
const KEY = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.-]+$' });

/** The form (a page's contract) that checks writes of a setting; undefined when no page edits it. */
export type SettingForm = (key: string) => FormSchema | undefined;

/** `rulesFor`: the hospital's named rules (schemas/rules) the form may refer to. */
export function settingRoutes(app: TypedApp, db: Db, formFor: SettingForm, rulesFor?: (hospitalId: number) => Promise<RuleResolver>): void {
  // Spec §7: the reader takes data.data (lang, hospital_logo, dingding_login_app_id, …).
  app.get('/api/common/setting', { config: { access: 'public' }, schema: { tags: ['settings'], response: okResponse() } }, async () =>
    ok({ data: await publicSettings(db) }));

  // Spec §7: the value comes back as the stored JSON string (e.g. system_config). Only declared keys answer
  // (declared.ts); any other key is missing, whatever the table holds. Only those who may change settings
  // see secrets such as ftppassword; everyone else gets them masked.
  app.get('/api/common/setting/get', {
    config: { access: 'user' },
    schema: { tags: ['settings'], querystring: Type.Object({ settings_key: KEY }), response: okResponse() },
  }, async (request) => {
    const { settings_key } = request.query;
    const row = settingVisibility(settings_key) ? await getSetting(db, settings_key) : undefined;
    if (!row) throw notFound('setting.not_found', { key: settings_key });
    return ok(hasPermission(request.auth!, 'system_setting') ? row.value : maskSecretsInText(row.value));
  });

  app.post('/api/common/setting', {
    config: { access: { permission: 'system_setting' } },
    schema: {
      tags: ['settings'],
      body: Type.Object({ settings_key: KEY, settings_value: Type.Unknown() }), response: okResponse()
    },
  }, async (request) => {
    const { settings_key, settings_value } = request.body;
    // Only declared keys: a key written now must not become readable later, nor a secret be parked here.
    // Who may read it is declared too, so a write cannot make a setting public (`is_public` is ignored).
    const visibility = settingVisibility(settings_key);
    if (!visibility) throw notFound('setting.not_found', { key: settings_key });
    if (JSON.stringify(settings_value ?? null).length > SETTING_MAX_CHARS) throw new AppError(413, 'error.too_large');
    const form = formFor(settings_key);
    // The form declares the whole setting: a key it does not name (`{ qc13: 90, other: 1 }`) is refused, not stored.
    if (form) validateWrite(form, asObject(settings_value), false, request.lang, { resolve: await rulesFor?.(request.auth!.hospitalId ?? 0), closed: true });
    await putSetting(db, settings_key, settings_value ?? null, visibility === 'public');
    return ok({ settings_key });
  });
}

/** system_config travels as JSON text (spec §7) or as an object; either way the form validates the object. */
function asObject(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') {
    try {
      const parsed = JSON.parse(value);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
    } catch {
      // not JSON: validated as an empty object, which fails the form's required fields with a clear message
    }
    return {};
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
