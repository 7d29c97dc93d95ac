import type { Generated } from 'kysely';

/** Sessions and sign-in: login keys and challenges, tokens, signing keys, QR login, WebAuthn credentials. */

export interface AuthKeyTable {
  key_id: string;
  public_key: string;
  private_key: string;
  created_at: string;
}

export interface AuthChallengeTable {
  nonce: string;
  key_id: string;
  expires_at: string;
  used_at: string | null;
}

export interface AuthTokenTable {
  token_hash: string;
  user_id: number;
  hospital_id: number | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** The screen of this session is locked: only unlocking, logging out and public routes answer it. */
  locked_at: string | null;
}

/** A secret that signs links (issue 8): never in `settings`, rotated by creation time per purpose. */
export interface SigningKeyTable {
  key_id: string;
  purpose: string;
  secret: string;
  created_at: string;
}

/** A QR login request (migration 0028): hashes only; waiting → approved → used, or declined. */
export interface QrLoginTable {
  id_hash: string;
  secret_hash: string;
  status: 'waiting' | 'approved' | 'used' | 'declined';
  user_id: number | null;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  expires_at: string;
  approved_at: string | null;
}

/** A hardware key (WebAuthn credential) a user registered (migration 0029). PostgreSQL returns bigint as text. */
export interface WebauthnCredentialTable {
  id: Generated<number>;
  user_id: number;
  credential_id: string;
  public_key: string;
  counter: number | string;
  user_handle: string;
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}
