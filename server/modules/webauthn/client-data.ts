/**
 * The challenge a browser's answer claims, read from its clientDataJSON before anything is verified, so the
 * challenge is spent first: an answer is tried once, whatever becomes of it. Null when it cannot be read.
 */
export function claimedChallenge(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(data.challenge) ? data.challenge : null;
  } catch {
    return null;
  }
}
