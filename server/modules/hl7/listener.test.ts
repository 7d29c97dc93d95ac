import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMllpListener, type MllpListener } from './listener.js';
import { frame, MllpDecoder } from './mllp-frame.js';

const quiet = { info() {}, warn() {}, error() {} };

/** A raw client: what the listener sends back, and whether it closed the connection. */
function connect(port: number) {
  const socket = net.connect({ host: '127.0.0.1', port });
  const decoder = new MllpDecoder(1 << 20);
  const answers: string[] = [];
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  socket.on('data', (c: Buffer) => answers.push(...decoder.push(c).map((b) => b.toString('utf8'))));
  const opened = new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  return { socket, answers, closed, opened };
}

describe('MLLP listener limits', () => {
  let listener: MllpListener | undefined;
  afterEach(async () => { await listener?.close(); });

  const start = (opts: { maxConnections?: number; idleTimeoutMs?: number; maxMessageBytes?: number }) => startMllpListener({
    port: 0, host: '127.0.0.1', maxConnections: opts.maxConnections ?? 5, idleTimeoutMs: opts.idleTimeoutMs ?? 60_000,
    maxMessageBytes: opts.maxMessageBytes ?? 1000, onMessage: async (raw) => `ACK of ${raw}`, log: quiet,
  });

  it('answers each message on its connection, in order', async () => {
    listener = await start({});
    const c = connect(listener.port);
    c.socket.write(Buffer.concat([frame('one'), frame('two')]));
    await new Promise<void>((resolve) => { const t = setInterval(() => { if (c.answers.length === 2) { clearInterval(t); resolve(); } }, 10); });
    expect(c.answers).toEqual(['ACK of one', 'ACK of two']);
    c.socket.destroy();
  });

  it('closes a connection whose message grows past the limit, unanswered', async () => {
    listener = await start({ maxMessageBytes: 100 });
    const c = connect(listener.port);
    c.socket.write(frame('x'.repeat(500)));
    await c.closed;
    expect(c.answers).toEqual([]);
  });

  it('closes a connection past the connection limit, and one left silent', async () => {
    listener = await start({ maxConnections: 1, idleTimeoutMs: 300 });
    const first = connect(listener.port);
    await first.opened;
    const second = connect(listener.port);
    await second.closed;
    expect(second.answers).toEqual([]);
    // The first, silent past the idle time, is closed by the listener too.
    await first.closed;
  });
});
