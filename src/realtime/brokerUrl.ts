/** The spec's reconnect delay for the realtime channel (§7). */
export const RECONNECT_MS = 10_000;

/**
 * The broker's WebSocket URL from what the server said: a path is this site (the embedded broker), `:port/path`
 * is this host on another port (RabbitMQ's Web-MQTT), anything else is used as given. wss under https.
 */
export function brokerUrl(url: string, location: { protocol: string; host: string; hostname: string }): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.startsWith('/')) return `${scheme}//${location.host}${url}`;
  if (url.startsWith(':')) return `${scheme}//${location.hostname}${url}`;
  return url;
}
