import { AsyncLocalStorage } from 'node:async_hooks';
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

/**
 * The box of one configuration: SECRETS_KEY when given, else the data directory's key file (made when missing). One
 * per app (buildApp, from its config), handed to the modules that seal or open, never held by this module: two apps
 * in one process (tests, a hospital group's nodes) each use their own key.
 */
export function secretBox(config: SecretsConfig): SecretBox {
  return new SecretBox(config.key ? parseSecretsKey(config.key) : keyFromDataDir(config.dataDir));
}

/** The key of the migrations running now (migration 0033 seals old plaintext secrets with it), set by whoever runs them. */
const migrating = new AsyncLocalStorage<() => Buffer>();

/**
 * Runs `work` (the migrations) with the secrets key of `config`: a migration that seals or opens asks for it
 * (migrationSecretsKey), and it is read only then (a new database has nothing to seal). Scoped to the call, not to
 * the process.
 */
export function withMigrationSecrets<T>(config: SecretsConfig, work: () => Promise<T>): Promise<T> {
  let key: Buffer | undefined;
  return migrating.run(() => (key ??= config.key ? parseSecretsKey(config.key) : keyFromDataDir(config.dataDir)), work);
}

/** For the migrations only (db/migrate.ts hands it to the registry): the key of the withMigrationSecrets run this is in. */
export function migrationSecretsKey(): Buffer {
  const key = migrating.getStore();
  if (!key) throw new Error('a secret sealed or opened outside withMigrationSecrets: outside the migrations, use the app’s SecretBox');
  return key();
}
