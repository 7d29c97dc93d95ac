import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software FIDO2 authenticator for the API tests: real P-256 keys and real signatures over what a browser and
 * an authenticator would send (clientDataJSON, authenticator data, `none` attestation), so the server's
 * verification runs as it does for a hardware key. The e2e tests use Chromium's virtual authenticator instead.
 */

interface Held { privateKey: KeyObject; counter: number; userHandle: string; rpId: string }

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();
const b64u = (b: Buffer) => b.toString('base64url');

/** Flags of authenticator data: user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

function counterBytes(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  // COSE_Key of an EC2 P-256 key for ES256: kty 2, alg -7, crv 1, x, y.
  return isoCBOR.encode(new Map<number, number | Uint8Array>([
    [1, 2], [3, -7], [-1, 1], [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))], [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
  ]));
}

export interface RegistrationOptions { challenge: string; rp: { id: string }; user: { id: string } }
export interface AuthenticationOptions { challenge: string; rpId: string }

export class SoftAuthenticator {
  readonly held = new Map<string, Held>();
  /** false: answers as if the user was present but not verified (no PIN, no fingerprint). */
  verifiesUser = true;

  /** What startRegistration() would answer for these options at `origin`. */
  register(options: RegistrationOptions, origin: string) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const id = randomBytes(32);
    this.held.set(b64u(id), { privateKey, counter: 0, userHandle: options.user.id, rpId: options.rp.id });
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false }));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(options.rp.id), Buffer.from([UP | (this.verifiesUser ? UV : 0) | AT]), counterBytes(0),
      Buffer.alloc(16), idLength, id, Buffer.from(coseKey(publicKey)),
    ]);
    const attestation = new Map<string, Parameters<typeof isoCBOR.encode>[0]>();
    attestation.set('fmt', 'none');
    attestation.set('attStmt', new Map());
    attestation.set('authData', new Uint8Array(authData));
    const attestationObject = isoCBOR.encode(attestation);
    return {
      id: b64u(id), rawId: b64u(id), type: 'public-key' as const, clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform' as const,
      response: { clientDataJSON: b64u(clientDataJSON), attestationObject: b64u(Buffer.from(attestationObject)), transports: ['usb'] },
    };
  }

  /**
   * What startAuthentication() would answer: a signature by the held key over authenticator data and the client
   * data hash. `counter` overrides the signature counter (a cloned key replaying an old count).
   */
  assert(options: AuthenticationOptions, origin: string, credentialId = [...this.held.keys()][0]!, counter?: number) {
    const key = this.held.get(credentialId)!;
    key.counter = counter ?? key.counter + 1;
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
    const authData = Buffer.concat([sha256(options.rpId), Buffer.from([UP | (this.verifiesUser ? UV : 0)]), counterBytes(key.counter)]);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), key.privateKey);
    return {
      id: credentialId, rawId: credentialId, type: 'public-key' as const, clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform' as const,
      response: { clientDataJSON: b64u(clientDataJSON), authenticatorData: b64u(authData), signature: b64u(signature), userHandle: key.userHandle },
    };
  }
}
