/** Single sign-on (migrations 0027, 0032). */

/** Single sign-on per hospital (migration 0027): an OpenID Connect provider and a messaging-app login. */
export interface SsoConfigTable {
  hospital_id: number;
  enabled: number;
  label: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  user_claim: string;
  create_unknown: number;
  default_role_id: number | null;
  im_enabled: number;
  im_kind: string;
  im_base_url: string;
  im_app_key: string;
  im_app_secret: string;
  im_user_field: string;
  /** Where the browser asks the messaging app for an auth code (auth/auth_code); empty: the kind's public address. */
  im_authorize_url: string;
  updated_at: string;
}

/** A sign-in sent to the provider and not yet back: single-use, expiring. */
export interface SsoFlowTable {
  state: string;
  hospital_id: number;
  nonce: string;
  code_verifier: string;
  redirect: string;
  expires_at: string;
}

/** A one-time code (its hash) that the browser trades for a session at sso_login_v2. */
export interface SsoCodeTable {
  code_hash: string;
  user_id: number;
  hospital_id: number;
  expires_at: string;
  /** Signed in through OpenID Connect: the provider's id token, handed on to the session for its logout. */
  id_token: string | null;
}

/** A session that came from OpenID Connect (migration 0032): logout ends it at the provider too. */
export interface SsoSessionTable {
  token_hash: string;
  hospital_id: number;
  id_token: string;
  expires_at: string;
}
