/**
 * The time left of an attempt by the server's clock: its end minus the server's time when it answered, less what
 * has passed here since (the browser's clock may be off; only its elapsed time is used). Never below 0.
 */
export function timeLeftMs(endsAt: string, serverNow: string, fetchedAt: number, clientNow: number): number {
  return Math.max(0, Date.parse(endsAt) - Date.parse(serverNow) - (clientNow - fetchedAt));
}

/** mm:ss, or h:mm:ss past an hour. */
export function clockText(ms: number): string {
  const s = Math.ceil(ms / 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  return h ? `${h}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}` : `${two(Math.floor(s / 60))}:${two(s % 60)}`;
}
