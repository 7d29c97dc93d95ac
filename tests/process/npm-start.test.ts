import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import { jobProgressTopic } from '../../src/core/realtime-topics.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { login, multipartChunk, request } from '../api/server-process.js';
import { realSlide, realSlides } from '../support/real-slides.js';
import { alive, connectionTo, connectionToOtherThan, listening, startAppProcess, until, type AppProcess, type WorkerConnection } from './app-process.js';

/**
 * The app as `npm start` runs it: a primary and two worker processes behind one port, the embedded realtime broker
 * in each worker, SQLite, real sockets. Every HTTP request here goes on a connection of its own unless it is meant
 * for a given worker, so the cluster spreads them over both. Which worker did what comes from the server's log
 * (each line has its pid): "incoming request" with the request's URL, "realtime client connected" with the MQTT
 * client id. The sessions' sweep is set to an hour, so a connection that closes after a logout was closed by the
 * logout itself. A session may hold SESSION_CONNECTIONS realtime connections.
 */
const SLIDE = 'CMU-1-Small-Region.svs';
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');
const SESSION_CONNECTIONS = 6;

describe('npm start: primary and two worker processes', () => {
  let app: AppProcess;
  const base = () => app.base;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) });

  beforeAll(async () => {
    app = await startAppProcess({ REALTIME_SWEEP_SECONDS: '3600', REALTIME_SESSION_CONNECTIONS: String(SESSION_CONNECTIONS) });
  });
  afterAll(async () => {
    await app?.cleanup();
  });

  it('signs in and answers the API over real sockets', async () => {
    expect(app.workerPids()).toHaveLength(2);
    const token = await login(base(), 'primary', DEMO_PASSWORDS.others);
    expect(token).toMatch(/\S{20,}/);
    const menu = await request(base(), 'GET', '/api/system_management/users/menu', bearer(token));
    expect(menu.status, menu.body.toString()).toBe(200);
    expect(menu.json().data.length).toBeGreaterThan(0);
    const inbox = await request(base(), 'GET', '/api/messages/lists', bearer(token));
    expect(inbox.status, inbox.body.toString()).toBe(200);
    expect(inbox.json().data).toMatchObject({ total: expect.any(Number) });
  });

  it('starts with the demo slides the build painted: the same files, read and served as tiles', async () => {
    const token = await login(base(), 'technician', DEMO_PASSWORDS.others);
    const res = await request(base(), 'GET', '/api/data/kfb/lists?search=DEMO', bearer(token));
    expect(res.status, res.body.toString()).toBe(200);
    const demo = (res.json().data.data as { id: number; name: string; status: string; width: number }[]).filter((s) => s.name.startsWith('DEMO-'));
    expect(demo.map((s) => s.name.slice(0, 6)).sort()).toEqual(['DEMO-1', 'DEMO-2', 'DEMO-3', 'DEMO-4']);
    for (const file of ['demo-1.tiff', 'demo-4.kfb']) {
      const copied = fs.readFileSync(path.join(app.dataDir, 'slides', 'demo', file));
      expect(md5(copied), file).toBe(md5(fs.readFileSync(path.join(import.meta.dirname, '../../dist-server/demo-slides', file))));
    }
    const first = demo.find((s) => s.name.startsWith('DEMO-1'))!;
    expect(first).toMatchObject({ status: 'ready', width: 4096 });
    const dzi = await request(base(), 'GET', `/api/tiles/${first.id}.dzi`, bearer(token));
    expect(dzi.status, dzi.body.toString()).toBe(200);
    expect(dzi.body.toString()).toContain('Width="4096"');
  });

  it.runIf(realSlides(SLIDE))('takes a real slide in 2 MiB chunks answered by both workers, binds it, and serves it', async () => {
    const token = await login(base(), 'technician', DEMO_PASSWORDS.others);
    const data = fs.readFileSync(realSlide(SLIDE));
    const totalNum = Math.ceil(data.length / CHUNK);
    const totalMd5 = md5(data);
    const chunk = (num: number) => {
      const bytes = data.subarray((num - 1) * CHUNK, num * CHUNK);
      return multipartChunk({ file_name: SLIDE, num, total_num: totalNum, md5: md5(bytes), total_md5: totalMd5 }, bytes);
    };
    const answeredBy = new Set<number>();
    let last: { code: number; path?: string } | undefined;
    for (let num = 1; num <= totalNum; num++) {
      const marker = `chunk-${num}-${randomUUID()}`;
      const body = chunk(num);
      const res = await request(base(), 'POST', `/api/upload/large?${marker}`, { ...bearer(token), 'content-type': body.type }, body.payload);
      expect(res.status, res.body.toString()).toBe(200);
      last = res.json().data;
      answeredBy.add(await app.servedBy(marker));
    }
    expect(last).toMatchObject({ code: 1, path: expect.stringContaining(SLIDE) });
    const done = last!.path!;
    expect(md5(fs.readFileSync(path.join(app.dataDir, done)))).toBe(totalMd5);
    // A worker that answered none of them (this file is smaller than one chunk) gets the last one again, as a browser
    // retries a lost answer, and answers it the same from the disk the other worker finished the file on.
    for (const pid of app.workerPids().filter((p) => !answeredBy.has(p))) {
      const connection = await connectionTo(app, pid);
      const marker = `retry-${randomUUID()}`;
      const body = chunk(totalNum);
      const res = await connection.request('POST', `/api/upload/large?${marker}`, { ...bearer(token), 'content-type': body.type }, body.payload);
      connection.close();
      expect(res.status, res.body.toString()).toBe(200);
      expect(res.json().data).toEqual({ code: 1, path: done });
      answeredBy.add(await app.servedBy(marker));
    }
    expect(answeredBy).toEqual(new Set(app.workerPids()));

    const bindBody = json({ path: done });
    const bind = await request(base(), 'POST', '/api/data/kfb/bind', { ...bearer(token), ...bindBody.headers }, bindBody.body);
    expect(bind.status, bind.body.toString()).toBe(200);
    const id = bind.json().data.id as number;
    // Ingested by the job runner in the primary.
    let row: Record<string, any> = {};
    await until(async () => {
      const res = await request(base(), 'GET', `/api/data/kfb/item/${id}`, bearer(token));
      expect(res.status, res.body.toString()).toBe(200);
      row = res.json().data;
      return row.status !== 'ingesting';
    }, `slide ${id} to be ingested`, 120_000);
    expect(row).toMatchObject({ status: 'ready', width: 2220, height: 2967, md5: totalMd5 });
    const dzi = await request(base(), 'GET', `/api/tiles/${id}.dzi`, bearer(token));
    expect(dzi.status, dzi.body.toString()).toBe(200);
    expect(dzi.body.toString()).toContain('Width="2220"');
  });

  describe('the realtime channel with clients on both workers', () => {
    const CLIENTS = 8;
    interface Session { token: string; client: MqttClient; clientId: string; pid: number; seen: { topic: string; payload: any; retain: boolean }[] }
    const sessions: Session[] = [];
    let me = 0;
    let username = '';
    let hospital = 0;
    const viewTopic = () => `dsms/h/${hospital}/p/${me}/process-test`;

    const extra: MqttClient[] = [];
    afterAll(async () => {
      for (const c of [...sessions.map((s) => s.client), ...extra]) c.end(true);
    });

    /** A connection of its own, as the browser opens it (the cluster hands it to a worker), and who holds it. */
    async function open(token: string, label: string): Promise<Session> {
      const clientId = `process-test-${label}-${randomUUID().slice(0, 8)}`;
      const client = await mqtt.connectAsync(`ws://127.0.0.1:${app.port}/mqtt`, { clientId, username, password: token, reconnectPeriod: 0, connectTimeout: 10_000 });
      const seen: Session['seen'] = [];
      client.on('message', (topic, payload, packet) => seen.push({ topic, payload: JSON.parse(payload.toString()), retain: packet.retain }));
      // Which worker holds it: its "realtime client connected" line.
      const pid = (await app.logged((l) => l.msg === 'realtime client connected' && l.clientId === clientId, `client ${clientId} in the log`)).pid;
      return { token, client, clientId, pid, seen };
    }
    /** A connection held by worker `pid`. */
    async function openOn(pid: number, token: string, label: string): Promise<Session> {
      for (let i = 0; i < 20; i++) {
        const s = await open(token, `${label}-${i}`);
        if (s.pid === pid) return s;
        s.client.end(true);
      }
      throw new Error(`20 connections never reached worker ${pid}`);
    }

    it('delivers every client’s publish to every client: 8 × 8', async () => {
      // Each its own session, as eight browsers signed in as the same user.
      const signedIn: { token: string; conn: { url: string; username: string; password: string | null; topics: { hospitals: string[]; user: string } } }[] = [];
      for (let i = 0; i < CLIENTS; i++) {
        const token = await login(base(), 'primary', DEMO_PASSWORDS.others);
        const res = await request(base(), 'GET', '/api/realtime/connection', bearer(token));
        expect(res.status, res.body.toString()).toBe(200);
        signedIn.push({ token, conn: res.json().data });
      }
      const { topics } = signedIn[0]!.conn;
      username = signedIn[0]!.conn.username;
      me = Number(topics.user.split('/')[2]);
      hospital = Number(topics.hospitals[0]!.split('/')[2]);
      // Then the eight connections one after another.
      for (const [i, { token, conn }] of signedIn.entries()) {
        // The embedded broker on the app's own port; the session's bearer token is the password.
        expect(conn).toMatchObject({ url: '/mqtt', username: 'primary', password: null });
        sessions.push(await open(token, String(i)));
      }
      expect(new Set(sessions.map((s) => s.pid))).toEqual(new Set(app.workerPids()));

      for (const s of sessions) {
        const granted = await s.client.subscribeAsync([`${viewTopic()}/#`, `dsms/u/${me}/messages`], { qos: 0 });
        expect(granted.map((g) => g.qos)).toEqual([0, 0]);
      }
      const views = (s: Session) => s.seen.filter((m) => m.topic.startsWith(`${viewTopic()}/`));
      await Promise.all(sessions.map((s, i) => s.client.publishAsync(`${viewTopic()}/${i}`, JSON.stringify({ from: i }), { qos: 0 })));
      await until(() => sessions.every((s) => views(s).length >= CLIENTS), 'every viewport event at every client', 20_000).catch(() => undefined);
      const deliveries = sessions.reduce((n, s) => n + views(s).length, 0);
      expect(`${deliveries} of ${CLIENTS * CLIENTS} deliveries`).toBe(`${CLIENTS * CLIENTS} of ${CLIENTS * CLIENTS} deliveries`);
      for (const s of sessions) expect(views(s).map((m) => m.payload.from).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    });

    it('pushes a message another user sends to every connection of its recipient: 8 of 8', async () => {
      const sender = await login(base(), 'auditor', DEMO_PASSWORDS.others);
      const body = json({ user_ids: [me], title: 'Frozen section', content: 'Across the workers' });
      const sent = await request(base(), 'POST', '/api/messages/send', { ...bearer(sender), ...body.headers }, body.body);
      expect(sent.status, sent.body.toString()).toBe(200);
      const pushes = () => sessions.filter((s) => s.seen.some((m) => m.topic === `dsms/u/${me}/messages`)).length;
      await until(() => pushes() === CLIENTS, 'the push at every connection', 20_000).catch(() => undefined);
      expect(`${pushes()} of ${CLIENTS} pushes`).toBe(`${CLIENTS} of ${CLIENTS} pushes`);
    });

    it('pushes the primary’s job states to every connection of the job’s hospital on both workers, and nothing on another hospital’s topic', async () => {
      const admin = await login(base(), 'admin', DEMO_PASSWORDS.admin);
      const other = hospital === 1 ? 2 : 1;
      for (const s of sessions) await s.client.subscribeAsync([jobProgressTopic(hospital), jobProgressTopic(other)], { qos: 0 });
      const dir = path.join(app.dataDir, 'uploads', 'complete', 'progress');
      fs.mkdirSync(dir, { recursive: true });
      await generateDemoSlide({ out: path.join(dir, 'scan.tiff'), width: 1200, height: 800, tileSize: 256, mpp: 0.25, seed: 7, slideId: 'PR-1', label: false });
      const body = json({ path: 'uploads/complete/progress/scan.tiff' });
      const bound = await request(base(), 'POST', '/api/data/kfb/bind', { ...bearer(admin), ...body.headers }, body.body);
      expect(bound.status, bound.body.toString()).toBe(200);
      const slide = bound.json().data as { id: number; hospital_id: number };
      expect(slide.hospital_id).toBe(hospital);
      // Queued by the worker that served the bind; run, and announced, by the primary's runner.
      // The ingest, and the focus check its finish queues: each job's states, as every connection heard them.
      const states = (s: Session, type: string) => s.seen
        .filter((m) => m.topic === jobProgressTopic(hospital) && m.payload.slide === slide.id && m.payload.type === type).map((m) => m.payload.state as string);
      await until(() => sessions.every((s) => states(s, 'slides.ingest').includes('done') && states(s, 'slides.focus').includes('done')), 'the ingest’s and the focus check’s end at every connection', 60_000).catch(() => undefined);
      for (const type of ['slides.ingest', 'slides.focus']) {
        expect(sessions.map((s) => `${type}: ${states(s, type).filter((x) => x !== 'running').join(',')}`)).toEqual(Array(CLIENTS).fill(`${type}: queued,done`));
        for (const s of sessions) expect(states(s, type)).toContain('running');
      }
      expect(sessions.flatMap((s) => s.seen.filter((m) => m.topic === jobProgressTopic(other)))).toEqual([]);
    });

    it('closes a logged-out session’s connection at once, on the worker that served the logout and on the other', async () => {
      const logout = async (session: Session, connection: WorkerConnection) => {
        const marker = `logout-${randomUUID()}`;
        expect((await connection.request('POST', `/api/auth/logout?${marker}`, bearer(session.token))).status).toBe(200);
        connection.close();
        return app.servedBy(marker);
      };
      /** The session's connection closes (the sweep, an hour away, cannot be what closes it). */
      const dropped = async (session: Session) => {
        await until(() => !session.client.connected, `${session.clientId} to be closed`, 20_000).catch(() => undefined);
        return !session.client.connected;
      };
      const [a, b] = sessions;
      // a's connection is on one worker; its logout goes to the other.
      expect(await logout(a!, await connectionToOtherThan(app, a!.pid))).not.toBe(a!.pid);
      expect(await dropped(a!), 'closed by a logout on the other worker').toBe(true);
      // b's logout goes to the worker holding its connection.
      expect(await logout(b!, await connectionTo(app, b!.pid))).toBe(b!.pid);
      expect(await dropped(b!), 'closed by a logout on its own worker').toBe(true);
      expect(sessions.filter((s) => s.client.connected).map((s) => s.clientId)).toEqual(sessions.slice(2).map((s) => s.clientId));
    });

    it('keeps no client’s retained packet: not for a later subscriber on the other worker, nor on a worker started after one crashed', async () => {
      const topic = `${viewTopic()}/retained`;
      const marker = `${viewTopic()}/marker`;
      const publisher = sessions.find((s) => s.client.connected)!;
      const elsewhere = sessions.find((s) => s.client.connected && s.pid !== publisher.pid)!;
      await publisher.client.publishAsync(topic, JSON.stringify({ kept: true }), { qos: 0, retain: true });
      await until(() => elsewhere.seen.some((m) => m.topic === topic), 'the packet live on the other worker');
      /**
       * What a new subscriber on worker `pid` gets until `from` publishes a marker after it subscribed: a retained
       * packet would come first, at the subscription.
       */
      const later = async (pid: number, label: string, from: Session) => {
        const s = await openOn(pid, publisher.token, label);
        extra.push(s.client);
        await s.client.subscribeAsync(`${viewTopic()}/#`, { qos: 0 });
        await from.client.publishAsync(marker, JSON.stringify({ marker: label }), { qos: 0 });
        await until(() => s.seen.some((m) => m.topic === marker), `the marker at a subscriber on worker ${pid}`, 20_000).catch(() => undefined);
        return s.seen;
      };
      expect(await later(elsewhere.pid, 'later', publisher)).toEqual([{ topic: marker, payload: { marker: 'later' }, retain: false }]);

      // The worker the packet was published on dies; the one started in its place has nothing from the primary either.
      const before = app.workerPids();
      process.kill(publisher.pid, 'SIGKILL');
      await until(() => !alive(publisher.pid) && app.workerPids().length > before.length, 'a worker started in place of the one killed', 60_000);
      const replacement = app.workerPids().find((p) => !before.includes(p))!;
      expect(await later(replacement, 'replacement', elsewhere)).toEqual([{ topic: marker, payload: { marker: 'replacement' }, retain: false }]);
    });

    it(`holds one session to ${SESSION_CONNECTIONS} connections over both workers: its oldest are closed`, async () => {
      const token = await login(base(), 'primary', DEMO_PASSWORDS.others);
      const mine: Session[] = [];
      for (let i = 0; i < SESSION_CONNECTIONS + 2; i++) {
        const s = await open(token, `cap-${i}`);
        extra.push(s.client);
        mine.push(s);
      }
      // Neither worker holds more than the limit: only a count over both closes any.
      const held = app.workerPids().map((pid) => mine.filter((s) => s.pid === pid).length);
      expect(Math.max(...held), `connections per worker: ${held.join(', ')}`).toBeLessThanOrEqual(SESSION_CONNECTIONS);
      await until(() => !mine[0]!.client.connected && !mine[1]!.client.connected, 'the two oldest connections to be closed', 20_000).catch(() => undefined);
      expect(mine.map((s) => s.client.connected)).toEqual([false, false, ...Array(SESSION_CONNECTIONS).fill(true)]);
    });
  });

  it('stops on SIGTERM: every process exits with code 0 and nothing listens', async () => {
    const workers = app.workerPids().filter(alive);
    expect(workers).toHaveLength(2);
    expect(await app.stop()).toBe(0);
    for (const pid of workers) {
      expect(app.log().find((l) => l.msg === 'server worker stopped' && l.workerPid === pid), `worker ${pid}`).toMatchObject({ code: 0, signal: null });
      expect(alive(pid), `worker ${pid}`).toBe(false);
    }
    expect(await listening(app.port)).toBe(false);
  });
});
