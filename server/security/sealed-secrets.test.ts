import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyFromDataDir, migrationSecretsKey, parseSecretsKey, SecretBox, secretBox, SecretUnreadable, withMigrationSecrets } from './sealed-secrets.js';

describe('sealed secrets', () => {
  const box = new SecretBox(randomBytes(32));

  it('seals to a versioned value that opens again; empty and sealed values are left as they are', () => {
    const sealed = box.seal('client-secret-ü');
    expect(sealed).toMatch(/^enc:v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(sealed).not.toContain('client-secret');
    expect(box.seal('client-secret-ü')).not.toBe(sealed); // a fresh IV each time
    expect(box.open(sealed)).toBe('client-secret-ü');
    expect(box.seal(sealed)).toBe(sealed);
    expect(box.seal('')).toBe('');
    expect(box.open('plain')).toBe('plain');
  });

  it('refuses a value sealed with another key or altered', () => {
    const sealed = box.seal('secret');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow(SecretUnreadable);
    const body = sealed.slice(-4);
    const altered = sealed.slice(0, -4) + (body === 'AAAA' ? 'BBBB' : 'AAAA');
    expect(() => box.open(altered)).toThrow(SecretUnreadable);
  });

  it('makes the data directory key once, readable by its owner only, and reads the same key after', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-secrets-'));
    try {
      const key = keyFromDataDir(path.join(dir, 'data'));
      const file = path.join(dir, 'data', 'secrets.key');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(keyFromDataDir(path.join(dir, 'data')).equals(key)).toBe(true);
      expect(fs.readdirSync(path.join(dir, 'data'))).toEqual(['secrets.key']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('SECRETS_KEY is 64 hex characters or base64 of 32 bytes; anything else is refused with the reason', () => {
    const raw = randomBytes(32);
    expect(parseSecretsKey(raw.toString('hex')).equals(raw)).toBe(true);
    expect(parseSecretsKey(raw.toString('base64')).equals(raw)).toBe(true);
    expect(() => parseSecretsKey('short')).toThrow(/SECRETS_KEY must be 32 bytes/);
  });

  it('a key is the configuration’s, never the process’s: two boxes of two keys, and migrations scoped to theirs', async () => {
    const a = { dataDir: '/nonexistent', key: randomBytes(32).toString('hex') };
    const b = { dataDir: '/nonexistent', key: randomBytes(32).toString('base64') };
    const sealedA = secretBox(a).seal('for-a');
    expect(secretBox(a).open(sealedA)).toBe('for-a');
    expect(() => secretBox(b).open(sealedA)).toThrow(SecretUnreadable);
    // Two migration runs at once, each with its own key: each is given its own.
    const [keyA, keyB] = await Promise.all([
      withMigrationSecrets(a, async () => { await new Promise((r) => setTimeout(r, 5)); return migrationSecretsKey(); }),
      withMigrationSecrets(b, async () => migrationSecretsKey()),
    ]);
    expect([keyA.equals(parseSecretsKey(a.key)), keyB.equals(parseSecretsKey(b.key))]).toEqual([true, true]);
    // Outside a migration run there is no key to use.
    expect(() => migrationSecretsKey()).toThrow(/outside withMigrationSecrets/);
  });
});
