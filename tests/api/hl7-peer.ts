import net from 'node:net';
import { Client, Message } from 'node-hl7-client';
import { Server, type Inbound } from 'node-hl7-server';

/**
 * The HIS's side of HL7 v2 over MLLP in the tests, built on npm's node-hl7-client (sends orders and registrations to
 * DSMS's listener, reads its ACKs) and node-hl7-server (the HIS's listener that takes DSMS's ORU^R01 results and
 * acknowledges them). None of DSMS's HL7 code is used here: what the tests read is what another implementation parsed.
 */
export interface HisSender {
  /** Sends a message and answers the ACK DSMS sent back (node-hl7-client's parse of it). */
  send(message: Message): Promise<Message>;
  close(): Promise<void>;
}

export function hisSender(port: number): HisSender {
  const client = new Client({ host: '127.0.0.1' });
  const waiting: ((m: Message) => void)[] = [];
  const connection = client.createConnection({ port, maxConnectionAttempts: 5 }, (res) => {
    waiting.shift()?.(res.getMessage());
  });
  return {
    send: (message) => new Promise<Message>((resolve, reject) => {
      waiting.push(resolve);
      connection.sendMessage(message).catch(reject);
    }),
    close: () => connection.close(),
  };
}

/** An HIS message of the given type, from application HIS at `facility`, with node-hl7-client's builder (v2.7 header). */
export function hisMessage(type: [string, string, string], controlId: string, facility: string): Message {
  const m = new Message({ messageHeader: { msh_9_1: type[0], msh_9_2: type[1], msh_9_3: type[2], msh_10: controlId, msh_11_1: 'P' } as never });
  m.set('MSH.3', 'HIS');
  m.set('MSH.4', facility);
  m.set('MSH.5', 'DSMS');
  m.set('MSH.6', 'PATHOLOGY');
  return m;
}

/** The HIS's results listener: every message it took (node-hl7-client's parse) and how it answers (AA unless told). */
export interface HisReceiver {
  port: number;
  received: Message[];
  answer: 'AA' | 'AE' | 'AR';
  /** Stops listening (the HIS is down); `start` listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function hisReceiver(): Promise<HisReceiver> {
  const port = await freePort();
  const server = new Server();
  let inbound: Inbound | undefined;
  const receiver: HisReceiver = {
    port,
    received: [],
    answer: 'AA',
    async start() {
      inbound = server.createInbound({ port }, async (req, res) => {
        // Read again with the client package's parser: node-hl7-server carries its own copy of an older one.
        receiver.received.push(new Message({ text: req.getMessage().toString() }));
        await res.sendResponse(receiver.answer);
      });
      await new Promise<void>((resolve, reject) => {
        inbound!.once('listen', () => resolve());
        inbound!.once('error', reject);
      });
    },
    async stop() {
      await inbound?.close();
      inbound = undefined;
    },
  };
  await receiver.start();
  return receiver;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
