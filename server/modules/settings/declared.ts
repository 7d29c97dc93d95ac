/**
 * The settings the API knows, by an allow-list: a key not named here is neither read nor written through
 * /api/common/setting, whatever rows the table holds. So a secret stored in the table by mistake, or a key
 * an administrator invents, never becomes readable; and who may read a key is decided here, not by a
 * writable flag. Secrets (signing keys) live elsewhere altogether (http/signing-keys.ts).
 *
 * `public`: readable before login by GET /api/common/setting (the login page needs language, logo, …).
 * `user`: readable by any signed-in user via GET /api/common/setting/get; secret fields (password, token, …)
 * stay masked for anyone without `system_setting`. Writes always need `system_setting`.
 */
export type SettingVisibility = 'public' | 'user';

const DECLARED: Readonly<Record<string, SettingVisibility>> = {
  // Spec §7: the public reader takes lang, hospital_logo, dingding_login_app_id; the shell reads lock_screen_minutes.
  lang: 'public',
  hospital_logo: 'public',
  dingding_login_app_id: 'public',
  lock_screen_minutes: 'public',
  // Spec §7, §9: read and written by the SettingOther page (form.source.setting), holds ftppassword.
  system_config: 'user',
  // Issue 16: { blur_share_limit } — above this share of tissue out of focus, QC starts with "blurry image".
  qc_focus: 'user',
  // Issue 16, spec §7 statistic_pass_rate_config: { qc13 } — the scan pass rate (%) ScanAccessStatistics aims at.
  statistic_pass_rate: 'user',
  // Issue 10: { registration, sample, slide_making, diagnosis } — hours a case may stay in each phase before
  // MissCaseSearch counts it as overdue (server/modules/cases/phase-limits.ts has the defaults).
  case_phase_hours: 'user',
  // Issue 17: { role_ids } — the roles that may register security keys and sign in with one (none by default).
  // Public: the login page offers "Sign in with a security key" only when some role may.
  webauthn_login: 'public',
};

/** How a key may be read, or undefined when the API does not declare it (then it answers as missing). */
export function settingVisibility(key: string): SettingVisibility | undefined {
  return Object.hasOwn(DECLARED, key) ? DECLARED[key] : undefined;
}

export const publicSettingKeys = (): string[] => Object.keys(DECLARED).filter((k) => DECLARED[k] === 'public');

/** Every declared key and its visibility (spec §7 setting/type). */
export const declaredSettings = (): { key: string; type: SettingVisibility }[] => Object.entries(DECLARED).map(([key, type]) => ({ key, type }));
