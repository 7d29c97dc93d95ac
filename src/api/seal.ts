import { api, unwrap } from './client';

interface Challenge { key_id: string; public_key: string; nonce: string }

/**
 * Seals a password for the server: RSA-OAEP(SHA-256) of `nonce:password` under the server's key.
 * WebCrypto does it where the page is a secure context; hospital intranets often serve plain http on an IP,
 * where `crypto.subtle` is missing, so node-forge (loaded only then) does the same encryption.
 */
export async function sealPassword(password: string): Promise<{ key_id: string; password: string }> {
  const { key_id, public_key, nonce } = await unwrap<Challenge>(api.get('/auth/challenge', { silent: true }));
  const plain = `${nonce}:${password}`;
  const sealed = globalThis.crypto?.subtle ? await sealWebCrypto(public_key, plain) : await sealForge(public_key, plain);
  return { key_id, password: sealed };
}

async function sealWebCrypto(pem: string, plain: string): Promise<string> {
  const der = Uint8Array.from(atob(pem.replace(/-----[^-]+-----|\s/g, '')), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(plain)));
  let binary = '';
  cipher.forEach((b) => { binary += String.fromCharCode(b); });
  return btoa(binary);
}

async function sealForge(pem: string, plain: string): Promise<string> {
  const forge = (await import('node-forge')).default;
  const key = forge.pki.publicKeyFromPem(pem);
  const cipher = key.encrypt(forge.util.encodeUtf8(plain), 'RSA-OAEP', { md: forge.md.sha256.create(), mgf1: { md: forge.md.sha256.create() } });
  return forge.util.encode64(cipher);
}
