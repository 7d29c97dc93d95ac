/** Spec §4: auto-lock after N idle minutes, checked each second; 0 or empty means never. */
export function shouldAutoLock(idleSeconds: number, minutes: unknown): boolean {
  const n = Number(minutes);
  if (!minutes || !Number.isFinite(n) || n <= 0) return false;
  return idleSeconds > 60 * n;
}
