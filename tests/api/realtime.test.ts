import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/connect.js';
import type { RealtimeConfig } from '../../server/realtime/config.js';
import { sendMessages } from '../../server/modules/messages/queries.js';
import { heartbeat } from '../../server/modules/scanners/queries.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';
import { listenOnLoopback } from './loopback.js';

/**
 * The realtime channel's ACL and session ends, on the embedded broker and (TEST_RABBITMQ_URL set) on RabbitMQ's
 * Web-MQTT plugin: a user subscribes and publishes only within their hospitals and their own user topic; a session
 * that ends (logout, revoked elsewhere) loses its connection and cannot come back; a session holds at most
 * SESSION_CONNECTIONS connections. On the embedded broker, what a client sends cannot make it keep more (issue 27
 * item 4): no retained packets from clients, QoS 0 subscriptions, clean sessions, capped subscriptions.
 */
const rabbit = process.env.TEST_RABBITMQ_URL ? new URL(process.env.TEST_RABBITMQ_URL) : undefined;
const SESSION_CONNECTIONS = 5;
const backends: { name: string; config: () => RealtimeConfig }[] = [
  { name: 'embedded', config: () => ({ kind: 'embedded', path: '/mqtt', sweepMs: 500, maxConnectionsPerSession: SESSION_CONNECTIONS }) },
  ...(rabbit ? [{
    name: 'rabbitmq',
    config: (): RealtimeConfig => ({
      kind: 'rabbitmq',
      managementUrl: `http://${rabbit.username}:${rabbit.password}@${rabbit.hostname}:15672`,
      serverUrl: `ws://${rabbit.username}:${rabbit.password}@${rabbit.hostname}:15675/ws`,
      userPrefix: `dsmstest-${Date.now().toString(36)}-`,
      sweepMs: 500,
      maxConnectionsPerSession: SESSION_CONNECTIONS,
    }),
  }] : []),
];

interface Conn { url: string; username: string; password: string | null }

for (const kind of databases) {
  for (const backend of backends) {
    // 120 s a test: every connection of these tests is provisioned through RabbitMQ's management API, which a loaded
    // machine (the whole suite on two cores) has been seen to keep waiting past 30 s.
    describe(`realtime channel (${kind}, ${backend.name})`, { timeout: 120_000 }, () => {
      let app: FastifyInstance;
      let db: Db;
      let h: Harness;
      let base: string;
      const open: MqttClient[] = [];

      beforeAll(async () => {
        h = await startApp(kind, { config: { realtime: backend.config() } });
        ({ app, db } = h);
        base = `ws://127.0.0.1:${await listenOnLoopback(app)}`;
      });
      afterAll(async () => {
        for (const c of open) c.end(true);
        await h.close();
      });

      const hospitals = async () => (await db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((h) => h.id);

      /** Where and how a session connects, as the browser asks the API. */
      async function where(token: string): Promise<{ url: string; options: IClientOptions }> {
        const res = await call(app, 'GET', '/api/realtime/connection', { token });
        expect(res.statusCode).toBe(200);
        const conn = res.json().data as Conn;
        const url = conn.url.startsWith('/') ? base + conn.url : conn.url.startsWith(':') ? `ws://127.0.0.1${conn.url}` : conn.url;
        return { url, options: { username: conn.username, password: conn.password ?? token, reconnectPeriod: 0, connectTimeout: 10_000 } };
      }

      /** Connects the way the browser does: asks the API where and how, then speaks MQTT over WebSocket. */
      async function connect(token: string, options: IClientOptions = {}): Promise<MqttClient> {
        const to = await where(token);
        const client = await mqtt.connectAsync(to.url, { ...to.options, ...options });
        open.push(client);
        return client;
      }

      /** 'connected', or 'refused': an error or a closed socket before any CONNACK success (RabbitMQ just closes). */
      async function tryConnect(token: string): Promise<'connected' | 'refused'> {
        const to = await where(token);
        const client = mqtt.connect(to.url, to.options);
        open.push(client);
        return new Promise((resolve) => {
          client.once('connect', () => resolve('connected'));
          client.once('error', () => resolve('refused'));
          client.once('close', () => resolve('refused'));
        });
      }

      const settle = <T>(p: Promise<T>) => Promise.race([p, new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref())]);

      /**
       * 'granted', or 'refused' (SUBACK failure, or the broker closed the connection: RabbitMQ), each on a connection of
       * its own. A broker that has said nothing after 15 s (RabbitMQ under a loaded machine) is asked once more on a
       * fresh connection; still nothing is 'silent', which fails the test's assertion by name instead of its timeout.
       */
      async function trySubscribe(token: string, topic: string, again = true): Promise<'granted' | 'refused' | 'silent'> {
        const client = await connect(token);
        // RabbitMQ may close the connection without the pending SUBSCRIBE ever being answered or failed.
        const dropped = new Promise<'refused'>((resolve) => client.once('close', () => resolve('refused')));
        let timer: NodeJS.Timeout | undefined;
        const silence = new Promise<'silent'>((resolve) => { timer = setTimeout(() => resolve('silent'), 15_000); });
        try {
          const granted = client.subscribeAsync(topic, { qos: 0 }).then((g) => (g[0]!.qos === 128 ? 'refused' as const : 'granted' as const));
          const answer = await Promise.race([granted, dropped, silence]);
          return answer === 'silent' && again ? await trySubscribe(token, topic, false) : answer;
        } catch {
          return 'refused';
        } finally {
          clearTimeout(timer);
          client.end(true);
        }
      }

      const closed = (client: MqttClient) => new Promise<void>((resolve) => {
        if (!client.connected) return resolve();
        client.once('close', () => resolve());
      });

      /** Messages in arrival order, until `marker` arrives. */
      function until(client: MqttClient, marker: string): Promise<string[]> {
        const seen: string[] = [];
        return new Promise((resolve) => {
          // Never later than 10 s: the assertion then shows what did arrive instead of a bare timeout.
          setTimeout(() => resolve(seen), 10_000).unref();
          client.on('message', (topic) => {
            seen.push(topic);
            if (topic === marker) resolve(seen);
          });
        });
      }

      it('refuses subscriptions to another hospital or user, and delivers the allowed ones', async () => {
        const [h1, h2] = await hospitals();
        const token = await tokenFor(app, 'registrar'); // hospital 1 only
        const me = await userId(db, 'registrar');
        const other = await userId(db, 'admin');
        for (const topic of [`dsms/h/${h2}/#`, `dsms/u/${other}/#`, 'dsms/#', '#', `dsms/+/${h2}/x`, `dsms/h/+/x`]) {
          expect(await trySubscribe(token, topic), topic).toBe('refused');
        }
        expect(await trySubscribe(token, `dsms/h/${h1}/#`)).toBe('granted');
        // One connection with both allowed subscriptions receives only what they cover, in order.
        const fresh = await connect(token);
        await fresh.subscribeAsync([`dsms/h/${h1}/#`, `dsms/u/${me}/#`]);
        const seen = until(fresh, `dsms/u/${me}/marker`);
        await app.realtime.publish(`dsms/h/${h2}/secret`, { no: 1 });
        await app.realtime.publish(`dsms/u/${other}/secret`, { no: 2 });
        await app.realtime.publish(`dsms/h/${h1}/news`, { yes: 1 });
        await app.realtime.publish(`dsms/u/${me}/marker`, { yes: 2 });
        expect(await seen).toEqual([`dsms/h/${h1}/news`, `dsms/u/${me}/marker`]);
      }, 120_000); // seven connections, each one provisioned through RabbitMQ's management API

      it('refuses publishing outside the user’s own publisher topics', async () => {
        const [h1] = await hospitals();
        const me = await userId(db, 'registrar');
        const listener = await connect(await tokenFor(app, 'admin'));
        await listener.subscribeAsync(`dsms/h/${h1}/#`);
        const seen = until(listener, `dsms/h/${h1}/marker`);
        const client = await connect(await tokenFor(app, 'registrar'));
        // Allowed: under dsms/h/<hospital>/p/<me>/...
        await client.publishAsync(`dsms/h/${h1}/p/${me}/hello`, 'ok');
        const gone = closed(client);
        client.publish(`dsms/h/${h1}/news`, 'forged'); // the server's topic: refused, the broker drops the client
        await gone;
        await app.realtime.publish(`dsms/h/${h1}/marker`, {});
        const topics = await seen;
        expect(topics).not.toContain(`dsms/h/${h1}/news`);
      });

      it('pushes a scanner’s new state to its hospital, and a new message to its recipient only', async () => {
        const [h1] = await hospitals();
        const me = await userId(db, 'registrar');
        const other = await userId(db, 'admin');
        const made = await call(app, 'POST', '/api/scanner/store', { token: await tokenFor(app, 'scanner'), payload: { name: 'RT-1', model: 'KF-PRO-400', area: 'Main' } });
        expect(made.statusCode, made.body).toBe(200);
        const scannerId = made.json().data.id as number;
        const listener = await connect(await tokenFor(app, 'registrar'));
        await listener.subscribeAsync([`dsms/h/${h1}/scanners/status`, `dsms/u/${me}/#`]);
        const bystander = await connect(await tokenFor(app, 'admin'));
        await bystander.subscribeAsync(`dsms/u/${other}/#`);
        const bystanderSaw: string[] = [];
        bystander.on('message', (topic) => bystanderSaw.push(topic));
        const payloads: unknown[] = [];
        listener.on('message', (_topic, payload) => payloads.push(JSON.parse(payload.toString())));
        const seen = until(listener, `dsms/u/${me}/marker`);

        expect((await heartbeat(db, scannerId, 'working', null)).changed).toBe(true);
        await sendMessages(db, { userId: other, hospitalId: h1 }, [me], { kind: 'message', level: 1, title: 'T', content: 'C' });
        await app.realtime.publish(`dsms/u/${me}/marker`, {});
        expect(await seen).toEqual([`dsms/h/${h1}/scanners/status`, `dsms/u/${me}/messages`, `dsms/u/${me}/marker`]);
        // A hint, not the data: the scanner's id and state, no message text.
        expect(payloads[0]).toMatchObject({ scannerId, status: 'working' });
        expect(JSON.stringify(payloads[1])).not.toContain('C');
        expect(bystanderSaw).toEqual([]);
      });

      it('drops the connection of a session that logs out, and refuses it afterwards', async () => {
        const token = await tokenFor(app, 'sampler');
        const client = await connect(token);
        const res = await call(app, 'GET', '/api/realtime/connection', { token });
        const conn = res.json().data as Conn;
        const gone = closed(client);
        expect((await call(app, 'POST', '/api/auth/logout', { token })).statusCode).toBe(200);
        await gone;
        const url = conn.url.startsWith('/') ? base + conn.url : `ws://127.0.0.1${conn.url}`;
        // Refused: an error or a closed socket before any CONNACK success (RabbitMQ just closes).
        const again = mqtt.connect(url, { username: conn.username, password: conn.password ?? token, reconnectPeriod: 0, connectTimeout: 10_000 });
        const outcome = await new Promise<string>((resolve) => {
          again.once('connect', () => resolve('connected'));
          again.once('error', () => resolve('refused'));
          again.once('close', () => resolve('refused'));
        });
        again.end(true);
        expect(outcome).toBe('refused');
      });

      it(`holds a session to ${SESSION_CONNECTIONS} connections: ${backend.name === 'embedded' ? 'the oldest is closed' : 'RabbitMQ refuses the next'}`, async () => {
        const token = await tokenFor(app, 'qc');
        const first = await connect(token);
        const others: MqttClient[] = [];
        for (let i = 1; i < SESSION_CONNECTIONS; i++) others.push(await connect(token));
        // Another session of the same user has its own count.
        const elsewhere = await connect(await tokenFor(app, 'qc'));
        if (backend.name === 'embedded') {
          const gone = closed(first);
          others.push(await connect(token));
          await settle(gone); // never later than 10 s: the assertion then says which stayed
          expect(first.connected, 'the oldest connection').toBe(false);
        } else {
          expect(await tryConnect(token)).toBe('refused');
          expect(first.connected, 'the oldest connection').toBe(true);
        }
        expect(others.map((c) => c.connected)).toEqual(others.map(() => true));
        expect(elsewhere.connected).toBe(true);
      });

      if (backend.name === 'embedded') {
        it('delivers a client’s retained publish live but keeps it for nobody: a later subscriber never gets it', async () => {
          const [h1] = await hospitals();
          const me = await userId(db, 'registrar');
          const topic = `dsms/h/${h1}/p/${me}/kept`;
          const marker = `dsms/h/${h1}/p/${me}/marker`;
          const listener = await connect(await tokenFor(app, 'admin'));
          await listener.subscribeAsync(`dsms/h/${h1}/p/${me}/#`);
          const live = until(listener, topic);
          const publisher = await connect(await tokenFor(app, 'registrar'));
          await publisher.publishAsync(topic, JSON.stringify({ big: 'x'.repeat(1000) }), { qos: 1, retain: true });
          expect(await live).toEqual([topic]);
          // A subscriber that comes later: anything retained would reach it before the marker.
          const later = await connect(await tokenFor(app, 'admin'));
          const seen = until(later, marker);
          await later.subscribeAsync(`dsms/h/${h1}/p/${me}/#`);
          await app.realtime.publish(marker, {});
          expect(await seen).toEqual([marker]);
        });

        it('keeps nothing per client a client could grow: QoS 0 deliveries, clean sessions, capped subscriptions', async () => {
          const token = await tokenFor(app, 'allocator');
          const me = await userId(db, 'allocator');
          // Asked for QoS 1, delivered at QoS 0: no unacknowledged delivery is kept for it.
          const receiver = await connect(token);
          await receiver.subscribeAsync(`dsms/u/${me}/#`, { qos: 1 });
          const qos = new Promise<number>((resolve) => receiver.once('message', (_t, _p, packet) => resolve(packet.qos)));
          await (await connect(token)).publishAsync(`dsms/u/${me}/q`, '1', { qos: 1 });
          expect(await qos).toBe(0);
          receiver.end(true);

          // A persistent session is not kept: coming back with the same client id finds none.
          const clientId = `rt-test-${randomUUID().slice(0, 8)}`;
          const persistent = await connect(token, { clean: false, clientId });
          await persistent.subscribeAsync(`dsms/u/${me}/offline`, { qos: 1 });
          const left = closed(persistent);
          persistent.end(true);
          await left;
          const to = await where(token);
          const back = mqtt.connect(to.url, { ...to.options, clean: false, clientId });
          open.push(back);
          const present = await new Promise<boolean>((resolve) => back.once('connect', (ack) => resolve(ack.sessionPresent)));
          expect(present).toBe(false);
          back.end(true);

          // 32 topic filters a connection, however many one SUBSCRIBE carries; one already held may be renewed.
          const many = await connect(token);
          /** The SUBACK's grants (mqtt.js rejects a SUBACK with a refusal in it, the packet attached). */
          const grants = (topics: string[]) => many.subscribeAsync(topics, { qos: 0 }).then(
            (granted) => granted.map((g) => g.qos),
            (e: { packet?: { granted?: number[] } }) => { if (!e.packet?.granted) throw e; return e.packet.granted; },
          );
          const filters = Array.from({ length: 40 }, (_, i) => `dsms/u/${me}/f/${i}`);
          expect(await grants(filters)).toEqual([...Array(32).fill(0), ...Array(8).fill(128)]);
          expect(await grants([filters[0]!])).toEqual([0]);
          await many.unsubscribeAsync(filters[1]!);
          expect(await grants([filters[35]!])).toEqual([0]);
          expect(await grants([filters[36]!])).toEqual([128]);
        });
      }

      it('drops a session revoked elsewhere (straight in the database) at its next sweep', async () => {
        const token = await tokenFor(app, 'technician');
        const client = await connect(token);
        const [h1] = await hospitals();
        await client.subscribeAsync(`dsms/h/${h1}/#`);
        const gone = closed(client);
        await db.updateTable('auth_tokens').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', await userId(db, 'technician')).execute();
        await gone;
      });
    });
  }
}
