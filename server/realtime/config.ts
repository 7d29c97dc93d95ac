/**
 * Which broker carries the realtime channel. Embedded (default): an aedes broker inside each app process, reached
 * at REALTIME_PATH (/mqtt) on the app's own port. RabbitMQ (RABBITMQ_URL or MQTT_URL set): its Web-MQTT plugin, so
 * several app nodes share one broker; the app provisions per-session credentials through the management API.
 */
export type RealtimeConfig =
  | {
    kind: 'embedded'; path: string; sweepMs: number;
    /** REALTIME_SESSION_CONNECTIONS: past it a session's oldest connection is closed (counted over all workers). */
    maxConnectionsPerSession: number;
  }
  | {
    kind: 'rabbitmq';
    /** REALTIME_SESSION_CONNECTIONS: RabbitMQ refuses a session's connection past it (its per-user max-connections). */
    maxConnectionsPerSession: number;
    /** The management HTTP API, credentials included (provisions per-session users and topic permissions). */
    managementUrl: string;
    /** Where this server publishes (an MQTT or MQTT-over-WebSocket URL, credentials included). */
    serverUrl: string;
    /** What browsers connect to; unset: ws(s)://<the page's host>:15675/ws. */
    publicUrl?: string;
    /** Names the RabbitMQ users this deployment provisions (RABBITMQ_USER_PREFIX, default `dsms-`); its sweep touches only those. */
    userPrefix: string;
    sweepMs: number;
  };

/** How many realtime connections one session may hold (REALTIME_SESSION_CONNECTIONS, default 20, at least 1). */
export function sessionConnectionLimit(env: NodeJS.ProcessEnv): number {
  const n = Math.trunc(Number(env.REALTIME_SESSION_CONNECTIONS));
  return n >= 1 ? n : 20;
}

export function parseRealtimeConfig(env: NodeJS.ProcessEnv): RealtimeConfig {
  const sweepMs = Math.max(1, Number(env.REALTIME_SWEEP_SECONDS) || 5) * 1000;
  const maxConnectionsPerSession = sessionConnectionLimit(env);
  const amqp = env.RABBITMQ_URL ? new URL(env.RABBITMQ_URL) : undefined;
  if (!amqp && !env.MQTT_URL) return { kind: 'embedded', path: env.REALTIME_PATH || '/mqtt', sweepMs, maxConnectionsPerSession };
  const host = amqp?.hostname ?? new URL(env.MQTT_URL!).hostname;
  const user = decodeURIComponent(amqp?.username || 'guest');
  const pass = decodeURIComponent(amqp?.password || 'guest');
  const auth = `${encodeURIComponent(user)}:${encodeURIComponent(pass)}@`;
  return {
    kind: 'rabbitmq',
    managementUrl: env.RABBITMQ_MANAGEMENT_URL || `http://${auth}${host}:15672`,
    serverUrl: env.MQTT_URL || `ws://${auth}${host}:15675/ws`,
    publicUrl: env.MQTT_PUBLIC_URL || undefined,
    userPrefix: env.RABBITMQ_USER_PREFIX || 'dsms-',
    sweepMs,
    maxConnectionsPerSession,
  };
}

/** The CSP connect-src entries the browser needs for the broker (same origin needs none). */
export function realtimeConnectSources(config: RealtimeConfig): string[] {
  if (config.kind === 'embedded') return [];
  if (config.publicUrl) return [new URL(config.publicUrl).origin];
  return ['ws://*:15675', 'wss://*:15675'];
}
