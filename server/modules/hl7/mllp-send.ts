import net from 'node:net';
import { frame, MllpDecoder } from './mllp-frame.js';

/** The peer could not be reached or did not answer in time: worth trying again later. */
export class PeerUnavailable extends Error {}

/**
 * Sends one message over a connection of its own and answers the peer's acknowledgement (the first message it sends
 * back). A connection per message: HIS listeners commonly close after answering, and a send every few minutes gains
 * nothing from a kept one. Refused, reset, closed without an answer, or no answer within `timeoutMs`: PeerUnavailable.
 */
export function sendMessage(target: { host: string; port: number }, message: string, opts: { timeoutMs: number; maxAckBytes?: number; signal?: AbortSignal }): Promise<string> {
  return new Promise((resolve, reject) => {
    const decoder = new MllpDecoder(opts.maxAckBytes ?? 1024 * 1024);
    const socket = net.connect(target.port, target.host);
    let settled = false;
    const end = (err: Error | null, ack?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      if (err) reject(err);
      else resolve(ack!);
    };
    const timer = setTimeout(() => end(new PeerUnavailable(`no acknowledgement within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    const onAbort = () => end(new PeerUnavailable('stopped'));
    opts.signal?.addEventListener('abort', onAbort);
    socket.on('connect', () => socket.write(frame(message)));
    socket.on('data', (chunk: Buffer) => {
      try {
        const [first] = decoder.push(chunk);
        if (first) end(null, first.toString('utf8'));
      } catch (err) {
        end(new PeerUnavailable((err as Error).message));
      }
    });
    socket.on('error', (err) => end(new PeerUnavailable(err.message)));
    socket.on('close', () => end(new PeerUnavailable('connection closed before an acknowledgement')));
  });
}
