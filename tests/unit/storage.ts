/** In-memory Web Storage for modules that read localStorage / sessionStorage at import time (node has neither). */
export class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() { return this.map.size; }
  clear() { this.map.clear(); }
  getItem(key: string) { return this.map.has(key) ? this.map.get(key)! : null; }
  key(i: number) { return [...this.map.keys()][i] ?? null; }
  removeItem(key: string) { this.map.delete(key); }
  setItem(key: string, value: string) { this.map.set(key, String(value)); }
}

export function installStorage() {
  const g = globalThis as unknown as { localStorage?: Storage; sessionStorage?: Storage };
  g.localStorage ??= new MemoryStorage();
  g.sessionStorage ??= new MemoryStorage();
}
