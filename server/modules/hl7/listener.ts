import net from 'node:net';
import { frame, FrameTooLarge, MllpDecoder } from './mllp-frame.js';

export interface ListenerOptions {
  port: number;
  host: string;
  maxConnections: number;
  idleTimeoutMs: number;
  maxMessageBytes: number;
  /** One message's text, answered with the acknowledgement to send back. */
  onMessage(raw: string): Promise<string>;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export interface MllpListener {
  /** The port bound (the given one, or the system's choice for 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * The MLLP listener the HIS sends its messages to: each message is answered on its connection, in order, before
 * the next is read (the socket is paused meanwhile, so a peer cannot queue more than one chunk's worth). Limits: at
 * most `maxConnections` at once (more are closed by the server), a connection silent for `idleTimeoutMs` is closed,
 * and a message past `maxMessageBytes` closes its connection instead of being buffered.
 */
export function startMllpListener(opts: ListenerOptions): Promise<MllpListener> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    const decoder = new MllpDecoder(opts.maxMessageBytes);
    let chain = Promise.resolve();
    socket.setTimeout(opts.idleTimeoutMs, () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', (err) => opts.log.warn({ err: err.message, peer }, 'HL7 connection error'));
    socket.on('data', (chunk: Buffer) => {
      let messages: Buffer[];
      try {
        messages = decoder.push(chunk);
      } catch (err) {
        if (!(err instanceof FrameTooLarge)) throw err;
        opts.log.warn({ peer, maxBytes: opts.maxMessageBytes }, 'HL7 message too large: connection closed');
        socket.destroy();
        return;
      }
      if (!messages.length) return;
      socket.pause();
      chain = chain.then(async () => {
        for (const m of messages) {
          const ack = await opts.onMessage(m.toString('utf8')).catch((err: unknown) => {
            opts.log.error({ err, peer }, 'HL7 message not answered');
            return null;
          });
          if (ack === null) {
            socket.destroy();
            return;
          }
          if (!socket.destroyed) socket.write(frame(ack));
        }
        if (!socket.destroyed) socket.resume();
      });
    });
  });
  server.maxConnections = opts.maxConnections;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      const port = (server.address() as net.AddressInfo).port;
      opts.log.info({ host: opts.host, port }, 'HL7 MLLP listener started');
      resolve({
        port,
        close: () => new Promise<void>((done) => {
          for (const s of sockets) s.destroy();
          server.close(() => done());
        }),
      });
    });
  });
}
