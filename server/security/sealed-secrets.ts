import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets at rest (issue 17: "the client secret lives in the secrets store"): the credentials DSMS presents to
 * other systems (the OpenID Connect client secret, the messaging app's secret, the teaching library's token) are
 * stored sealed with AES-256-GCM, so a copy of the database or a backup alone does not give them away. The key is
 * SECRETS_KEY when set (64 hex characters or 32 bytes in base64: every node of a cluster needs the same one), else
 * `secrets.key` in the data directory, made with mode 0600 the first time a secret is sealed or opened.
 * A sealed value reads `enc:v1:<iv>:<tag>:<ciphertext>` (base64url); anything without the prefix is plaintext
 * an older release wrote (migration 0033 seals those).
 */
export const SEALED_PREFIX = 'enc:v1:';
const KEY_FILE = 'secrets.key';

export interface SecretsConfig {
  /** Where `secrets.key` is kept when no key is given. */
  dataDir: string;
  /** SECRETS_KEY as given. */
  key?: string;
}

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the secrets key must be 32 bytes');
  }

  /** The value sealed; the empty string stays empty (no secret set), a sealed one is left as it is. */
  seal(plain: string): string {
    if (!plain || isSealed(plain)) return plain;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${SEALED_PREFIX}${[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join(':')}`;
  }

  /** The plaintext of a stored value. Throws when it was sealed with another key or altered. */
  open(stored: string): string {
    if (!isSealed(stored)) return stored;
    const [iv, tag, body] = stored.slice(SEALED_PREFIX.length).split(':').map((p) => Buffer.from(p, 'base64url'));
    if (!iv || !tag || !body) throw new SecretUnreadable();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadable();
    }
  }
}

export class SecretUnreadable extends Error {
  constructor() {
    super('a stored secret cannot be opened: it was sealed with another key (SECRETS_KEY or secrets.key in the data directory changed?) or altered');
  }
}

export const isSealed = (value: string) => value.startsWith(SEALED_PREFIX);

/** SECRETS_KEY read as 64 hex characters or base64 of 32 bytes; anything else stops the start with its reason. */
export function parseSecretsKey(value: string): Buffer {
  const text = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes: 64 hex characters or base64 (openssl rand -hex 32)');
  return key;
}

/**
 * The key file of the data directory, made when missing. It is written to a temporary name and linked into place,
 * so two processes starting at once both end up with the one that won, never with a half-written file.
 */
export function keyFromDataDir(dataDir: string): Buffer {
  const file = path.join(dataDir, KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(temp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.unlinkSync(temp);
    }
  }
  return parseSecretsKey(fs.readFileSync(file, 'utf8'));
}

let configured: SecretsConfig = { dataDir: path.resolve('data') };
let key: Buffer | undefined;
let box: SecretBox | undefined;

/**
 * Where this process finds its key (main.ts, from the config, before the migrations run). The box is one per
 * process: the migration that seals old rows and the routes that open them must use the same key.
 */
export function configureSecrets(config: SecretsConfig): void {
  configured = config;
  key = undefined;
  box = undefined;
}

/** The process's key, read (or the key file made) on first use; migration 0033 seals with it too. */
export function secretsKey(): Buffer {
  key ??= configured.key ? parseSecretsKey(configured.key) : keyFromDataDir(configured.dataDir);
  return key;
}

/** The process's box. */
export function secrets(): SecretBox {
  box ??= new SecretBox(secretsKey());
  return box;
}

export const sealSecret = (plain: string) => secrets().seal(plain);
export const openSecret = (stored: string) => secrets().open(stored);
