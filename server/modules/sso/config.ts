import type { Db } from '../../db/connect.js';
import type { SsoConfigTable } from '../../db/schema.js';
import { isAdminRole } from '../../../src/core/subCentreGrants.js';
import { AppError } from '../../http/errors.js';
import type { MessageKey } from '../../i18n/messages.js';
import type { SecretBox } from '../../security/sealed-secrets.js';

/** What config/sso answers: everything but the secrets, which are only said to be set or not. */
export interface SsoConfigView {
  hospital_id: number;
  enabled: boolean;
  label: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  user_claim: string;
  create_unknown: boolean;
  default_role_id: number | null;
  im_enabled: boolean;
  im_kind: string;
  im_base_url: string;
  im_app_key: string;
  im_app_secret: string;
  im_user_field: string;
  im_authorize_url: string;
}

/** What an administrator sends; a secret left out (or sent back masked) keeps the stored one. */
export type SsoConfigInput = Partial<Omit<SsoConfigView, 'hospital_id'>>;

export const MASK = '***';
export const MESSAGING_KINDS = ['dingtalk'] as const;
export const MESSAGING_USER_FIELDS = ['mobile', 'email'] as const;

const EMPTY = (hospitalId: number): SsoConfigTable => ({
  hospital_id: hospitalId, enabled: 0, label: '', issuer: '', client_id: '', client_secret: '', user_claim: 'preferred_username',
  create_unknown: 0, default_role_id: null, im_enabled: 0, im_kind: 'dingtalk', im_base_url: '', im_app_key: '', im_app_secret: '',
  im_user_field: 'mobile', im_authorize_url: '', updated_at: '',
});

export async function loadSsoConfig(db: Db, hospitalId: number): Promise<SsoConfigTable> {
  return (await db.selectFrom('sso_configs').selectAll().where('hospital_id', '=', hospitalId).executeTakeFirst()) ?? EMPTY(hospitalId);
}

export function viewOf(row: SsoConfigTable): SsoConfigView {
  return {
    hospital_id: row.hospital_id, enabled: row.enabled === 1, label: row.label, issuer: row.issuer, client_id: row.client_id,
    client_secret: row.client_secret ? MASK : '', user_claim: row.user_claim, create_unknown: row.create_unknown === 1,
    default_role_id: row.default_role_id, im_enabled: row.im_enabled === 1, im_kind: row.im_kind, im_base_url: row.im_base_url,
    im_app_key: row.im_app_key, im_app_secret: row.im_app_secret ? MASK : '', im_user_field: row.im_user_field,
    im_authorize_url: row.im_authorize_url,
  };
}

/**
 * Providers are reached over https; plain http only on this machine (a provider on loopback, as in the tests), so a
 * misconfigured issuer cannot send codes and secrets across the network in clear.
 */
export function outsideUrlProblem(value: string): 'sso.url_invalid' | 'sso.url_insecure' | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'sso.url_invalid';
  }
  if (url.username || url.password || url.hash) return 'sso.url_invalid';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return null;
  return 'sso.url_insecure';
}

export const isLoopback = (host: string) => host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Merges an administrator's change into the stored row, checking it whole: a refused change writes nothing. The
 * secrets are stored sealed with the app's key (`secrets`, security/sealed-secrets.ts) and opened only where they are sent to the provider.
 */
export async function saveSsoConfig(db: Db, hospitalId: number, input: SsoConfigInput, secrets: SecretBox): Promise<SsoConfigTable> {
  const old = await loadSsoConfig(db, hospitalId);
  const keepSecret = (sent: string | undefined, stored: string) => (sent === undefined || sent === MASK ? stored : secrets.seal(sent));
  const row: SsoConfigTable = {
    hospital_id: hospitalId,
    enabled: input.enabled === undefined ? old.enabled : input.enabled ? 1 : 0,
    label: (input.label ?? old.label).trim(),
    issuer: (input.issuer ?? old.issuer).trim().replace(/\/+$/, ''),
    client_id: (input.client_id ?? old.client_id).trim(),
    client_secret: keepSecret(input.client_secret, old.client_secret),
    user_claim: input.user_claim ?? old.user_claim,
    create_unknown: input.create_unknown === undefined ? old.create_unknown : input.create_unknown ? 1 : 0,
    default_role_id: input.default_role_id === undefined ? old.default_role_id : input.default_role_id,
    im_enabled: input.im_enabled === undefined ? old.im_enabled : input.im_enabled ? 1 : 0,
    im_kind: input.im_kind ?? old.im_kind,
    im_base_url: (input.im_base_url ?? old.im_base_url).trim().replace(/\/+$/, ''),
    im_app_key: (input.im_app_key ?? old.im_app_key).trim(),
    im_app_secret: keepSecret(input.im_app_secret, old.im_app_secret),
    im_user_field: input.im_user_field ?? old.im_user_field,
    im_authorize_url: (input.im_authorize_url ?? old.im_authorize_url).trim(),
    updated_at: new Date().toISOString(),
  };
  await checkConfig(db, row);
  await db.deleteFrom('sso_configs').where('hospital_id', '=', hospitalId).execute();
  await db.insertInto('sso_configs').values(row).execute();
  return row;
}

async function checkConfig(db: Db, row: SsoConfigTable): Promise<void> {
  const field = (name: string, key: MessageKey) => new AppError(422, 'error.validation', {}, { [name]: [{ key }] });
  if (row.issuer) {
    const problem = outsideUrlProblem(row.issuer);
    if (problem) throw field('issuer', problem);
  }
  if (row.im_base_url) {
    const problem = outsideUrlProblem(row.im_base_url);
    if (problem) throw field('im_base_url', problem);
  }
  if (row.im_authorize_url) {
    const problem = outsideUrlProblem(row.im_authorize_url);
    if (problem) throw field('im_authorize_url', problem);
  }
  if (row.enabled) {
    if (!row.issuer) throw field('issuer', 'sso.required');
    if (!row.client_id) throw field('client_id', 'sso.required');
    if (!row.label) throw field('label', 'sso.required');
  }
  if (row.im_enabled) {
    if (!row.im_base_url) throw field('im_base_url', 'sso.required');
    if (!row.im_app_key) throw field('im_app_key', 'sso.required');
    if (!row.im_app_secret) throw field('im_app_secret', 'sso.required');
  }
  if (row.create_unknown) {
    if (row.default_role_id === null) throw field('default_role_id', 'sso.required');
  }
  if (row.default_role_id !== null) {
    const role = await db.selectFrom('roles').select(['id', 'identification', 'name', 'en_name']).where('id', '=', row.default_role_id).executeTakeFirst();
    if (!role) throw field('default_role_id', 'sso.role_unknown');
    // Whoever the provider vouches for would otherwise become an administrator of the whole installation (by the
    // role's code, or its name in either language: the session counts both).
    if (isAdminRole(role)) throw field('default_role_id', 'sso.role_admin');
  }
}
