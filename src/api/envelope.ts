/**
 * The server's answer envelope (ARCHITECTURE.md §3): `{ code: 0, message, data }`. A 200 answer whose `code` is a
 * number other than 0 is a refusal carrying the server's (translated) message (spec §8 "List call with a message"),
 * so it is an error on every screen, never data. Transport-neutral: the API client and any data provider read it.
 */
export interface Envelope<T> { code?: number; message?: string; data: T }

/** A 200 answer whose envelope carries a failure; `displayText` is what to show (the server's message). */
export class EnvelopeError extends Error {
  readonly displayText: string;
  readonly code: number;
  constructor(message: string, code: number) {
    super(message);
    this.displayText = message;
    this.code = code;
  }
}

/** The envelope's data, or an EnvelopeError for `code !== 0` (`fallback` names it when the server gave no message). */
export function readEnvelope<T>(body: unknown, fallback: (code: number) => string): T {
  const envelope = (body ?? {}) as Envelope<T>;
  if (typeof envelope.code === 'number' && envelope.code !== 0) {
    throw new EnvelopeError(envelope.message || fallback(envelope.code), envelope.code);
  }
  return envelope.data;
}
