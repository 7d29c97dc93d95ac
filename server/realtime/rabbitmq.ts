import { createHash } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { hospitalTopic, rabbitTopicPatterns, type TopicHolder, userTopic } from '../../src/core/realtime-topics.js';
import type { Db } from '../db/connect.js';
import type { RealtimeConfig } from './config.js';
import { encodePayload, type RealtimeHub } from './hub.js';
import { liveSessionByHash } from './queries.js';

const VHOST = encodeURIComponent('/');
/** What RabbitMQ's MQTT plugin declares and uses: the session's subscription queues and the amq.topic exchange. */
const RESOURCES = { configure: '^mqtt-subscription-.*$', write: '^(amq\\.topic|mqtt-subscription-.*)$', read: '^(amq\\.topic|mqtt-subscription-.*)$' };

/**
 * The realtime channel on RabbitMQ (rabbitmq_web_mqtt), shared by several app nodes. Authentication and ACL are
 * RabbitMQ's own, provisioned by the app through the management API: each session gets an internal RabbitMQ user
 * `<prefix><token hash>` whose password derives from the session token (so only its holder knows it), with topic
 * permissions on amq.topic written from the same rules as the embedded broker (rabbitTopicPatterns): RabbitMQ itself
 * refuses a subscription or publish outside them. A session that ends loses its user and its connections: at once on
 * this node (logout, lock), within `sweepMs` from any node's sweep otherwise (revoked, expired, hospitals changed).
 * RabbitMQ also holds each such user to `maxConnectionsPerSession` connections (its per-user max-connections
 * limit, RabbitMQ 3.8.10 and later): past it, it refuses the session's new connection; it cannot close the oldest.
 */
export async function rabbitHub(db: Db, config: Extract<RealtimeConfig, { kind: 'rabbitmq' }>): Promise<RealtimeHub> {
  const { managementUrl, serverUrl, publicUrl, sweepMs, userPrefix: USER_PREFIX, maxConnectionsPerSession } = config;
  const api = managementApi(managementUrl);
  // The server's own publisher (the RABBITMQ_URL user, unrestricted); mqtt.js reconnects by itself.
  const publisher: MqttClient = await mqtt.connectAsync(serverUrl, { clientId: `dsms-server-${process.pid}-${Date.now().toString(36)}`, reconnectPeriod: 2_000, connectTimeout: 10_000 });

  const provision = async (name: string, password: string, who: TopicHolder) => {
    await api('PUT', `/api/users/${encodeURIComponent(name)}`, { password, tags: '' });
    await api('PUT', `/api/user-limits/${encodeURIComponent(name)}/max-connections`, { value: maxConnectionsPerSession });
    await api('PUT', `/api/permissions/${VHOST}/${encodeURIComponent(name)}`, RESOURCES);
    await api('PUT', `/api/topic-permissions/${VHOST}/${encodeURIComponent(name)}`, { exchange: 'amq.topic', ...rabbitTopicPatterns(who) });
  };
  // Closes the user's connections whether or not the management statistics list them yet.
  const closeConnections = (name: string) => api('DELETE', `/api/connections/username/${encodeURIComponent(name)}`);
  const remove = async (name: string) => {
    await api('DELETE', `/api/users/${encodeURIComponent(name)}`);
    await closeConnections(name);
  };

  const sweep = async () => {
    const users = (await api('GET', '/api/users')) as { name: string }[];
    const topicPerms = (await api('GET', `/api/topic-permissions`)) as { user: string; read: string; write: string }[];
    for (const { name } of users.filter((u) => u.name.startsWith(USER_PREFIX))) {
      const live = await liveSessionByHash(db, name.slice(USER_PREFIX.length));
      const granted = topicPerms.find((p) => p.user === name);
      const wanted = live && rabbitTopicPatterns({ id: live.userId, hospitalIds: live.hospitalIds });
      // A live session's user without topic permissions is being provisioned (here or on another node): removing it
      // made that provisioning fail half way (a 500 on /api/realtime/connection). It gets the very permissions its
      // provisioning writes.
      if (wanted && !granted) await api('PUT', `/api/topic-permissions/${VHOST}/${encodeURIComponent(name)}`, { exchange: 'amq.topic', ...wanted });
      // Ended, or its hospitals changed: subscriptions already made would outlive a narrower permission.
      else if (!wanted || !granted || granted.read !== wanted.read || granted.write !== wanted.write) await remove(name);
    }
  };
  let sweeping: Promise<void> | undefined;
  const runSweep = () => { sweeping ??= sweep().catch(() => undefined).finally(() => { sweeping = undefined; }); return sweeping; };
  const timer = setInterval(runSweep, sweepMs);
  timer.unref();

  return {
    kind: 'rabbitmq',
    publish: async (topic, payload) => { await publisher.publishAsync(topic, encodePayload(payload), { qos: 0 }); },
    connection: async (session, token) => {
      const name = USER_PREFIX + session.tokenHash;
      const password = createHash('sha256').update(`dsms-mqtt:${token}`).digest('hex');
      await provision(name, password, session);
      return {
        url: publicUrl ?? ':15675/ws',
        username: name,
        password,
        topics: { hospitals: session.hospitalIds.map((h) => hospitalTopic(h, '#')), user: userTopic(session.id, '#') },
      };
    },
    // Failing here (broker away) leaves it to the sweep.
    endSession: (tokenHash) => { remove(USER_PREFIX + tokenHash).catch(() => undefined); },
    recheckUser: () => { void runSweep(); },
    close: async () => {
      clearInterval(timer);
      await sweeping;
      await publisher.endAsync();
    },
  };
}

/** A small client of RabbitMQ's management HTTP API (basic auth from the URL). */
function managementApi(baseUrl: string) {
  const url = new URL(baseUrl);
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  const origin = url.origin;
  return async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(origin + path, {
      method,
      headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok && res.status !== 404) throw new Error(`RabbitMQ management ${method} ${path}: ${res.status}`);
    const text = await res.text();
    return text ? JSON.parse(text) : null;
  };
}
