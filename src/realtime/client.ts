import mqtt, { type MqttClient } from 'mqtt';
import { api, unwrap } from '../api/client';
import { useSession } from '../store/session';
import { brokerUrl, RECONNECT_MS } from './brokerUrl';
import { setChannelLive } from './channel';

/**
 * The browser's one connection to the realtime channel (MQTT over WebSocket, server/realtime): the embedded broker
 * or RabbitMQ's Web-MQTT, as GET /api/realtime/connection says. Reconnects every 10 s (spec §7), asking the server
 * for fresh credentials first, so a session that ended stays out. Subscriptions are kept and renewed on reconnect.
 */
interface Connection { url: string; username: string; password: string | null }

export type MessageHandler = (payload: unknown, topic: string) => void;

let client: MqttClient | null = null;
let starting: Promise<MqttClient> | null = null;
const handlers = new Map<string, Set<MessageHandler>>();

async function credentials(): Promise<Connection & { password: string }> {
  const connection = await unwrap<Connection>(api.get('/realtime/connection', { silent: true }));
  return { ...connection, password: connection.password ?? useSession.getState().token ?? '' };
}

/** Does an MQTT filter (with + and #) cover this topic? */
export function matches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length || (f[i] !== '+' && f[i] !== t[i])) return false;
  }
  return f.length === t.length;
}

function start(): Promise<MqttClient> {
  starting ??= credentials().then((c) => {
    // timerVariant 'native': mqtt's default keep-alive timer runs in a blob: worker, which the app's CSP forbids.
    const next = mqtt.connect(brokerUrl(c.url, window.location), {
      username: c.username, password: c.password, reconnectPeriod: RECONNECT_MS, connectTimeout: 10_000, timerVariant: 'native',
    });
    // Before each reconnect: the session's current credentials (RabbitMQ's are per session).
    next.on('offline', () => {
      setChannelLive(false);
      credentials().then((fresh) => { next.options.username = fresh.username; next.options.password = fresh.password; }, () => undefined);
    });
    next.on('message', (topic, payload) => {
      let value: unknown;
      try { value = JSON.parse(payload.toString()); } catch { return; }
      for (const [filter, set] of handlers) {
        if (!matches(filter, topic)) continue;
        for (const h of set) {
          // A handler's error is its page's; thrown into mqtt's parser it would drop the connection for everyone.
          try { h(value, topic); } catch (e) { console.error(e); }
        }
      }
    });
    next.on('connect', () => { if (handlers.size) next.subscribe([...handlers.keys()], subscribed); });
    next.on('close', () => setChannelLive(false));
    client = next;
    return next;
  }).catch((e: unknown) => { starting = null; throw e; });
  return starting;
}

/**
 * The broker granted a subscription: pushes now arrive (channel.ts, for the pages that rely on them), and
 * `<html data-realtime="live">` tells tests (and devtools). On a reconnect mqtt.js has already subscribed again to
 * everything it held (its `resubscribe`), and answers ours with nothing granted and no error: that is up too.
 */
function subscribed(error: Error | null, granted?: { qos: number }[]): void {
  // QoS 128 is the broker's refusal (MQTT 3.1.1).
  if (error || !granted || (granted.length > 0 && !granted.some((g) => g.qos !== 128))) return;
  document.documentElement.dataset.realtime = 'live';
  setChannelLive(true);
}

/** Listens on a topic filter; returns the function that stops listening. */
export function subscribe(filter: string, handler: MessageHandler): () => void {
  let set = handlers.get(filter);
  if (!set) {
    set = new Set();
    handlers.set(filter, set);
    void start().then((c) => { if (c.connected) c.subscribe(filter, subscribed); }, () => undefined);
  }
  set.add(handler);
  return () => {
    set.delete(handler);
    if (set.size === 0) {
      handlers.delete(filter);
      client?.unsubscribe(filter);
    }
  };
}

/** Sends a JSON payload (the broker allows only this user's own publisher topics). */
export async function publish(topic: string, payload: unknown): Promise<void> {
  const c = await start();
  c.publish(topic, JSON.stringify(payload));
}

/** Ends the connection (logout). */
export function disconnect(): void {
  setChannelLive(false);
  client?.end(true);
  client = null;
  starting = null;
}
