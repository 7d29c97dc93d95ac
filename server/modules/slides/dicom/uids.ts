import { randomBytes } from 'node:crypto';

/** A new UID under the 2.25 root (ISO/IEC 9834-8: a random 128-bit number as decimal), unique without a registered root. */
export function newUid(): string {
  return `2.25.${BigInt(`0x${randomBytes(16).toString('hex')}`).toString(10)}`;
}
