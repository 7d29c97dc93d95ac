/** A realtime connection as the ledger knows it: its id (unique across workers) and who holds it. */
export interface HeldConnection<H> { id: string; holder: H }

/**
 * How many realtime connections each session holds, oldest first, wherever they are held (a cluster worker, or this
 * process): past `max` the oldest are the ones to close. Oldest, not the newest refused: a session that exceeds it
 * is most often a laptop woken from sleep or a browser on a new network, whose old sockets the broker still holds
 * until their keep-alive runs out, and the tab that connects now is the one in use. Memory is one entry per open
 * connection; nothing stays once a session's connections close.
 */
export class SessionConnections<H> {
  private readonly bySession = new Map<string, HeldConnection<H>[]>();
  private readonly sessionOf = new Map<string, string>();

  constructor(readonly max: number) {}

  /** A connection of `session` opened: answers the ones now over the limit (already forgotten here), oldest first. */
  opened(session: string, id: string, holder: H): HeldConnection<H>[] {
    this.closed(id);
    const list = this.bySession.get(session) ?? [];
    list.push({ id, holder });
    this.bySession.set(session, list);
    this.sessionOf.set(id, session);
    const over = list.splice(0, Math.max(0, list.length - this.max));
    for (const c of over) this.sessionOf.delete(c.id);
    return over;
  }

  /** A connection closed (also one answered by `opened`: then nothing changes). */
  closed(id: string): void {
    const session = this.sessionOf.get(id);
    if (session === undefined) return;
    this.sessionOf.delete(id);
    const list = this.bySession.get(session)!.filter((c) => c.id !== id);
    if (list.length) this.bySession.set(session, list);
    else this.bySession.delete(session);
  }

  /** A holder is gone (a worker exited): its connections went with it. */
  dropHolder(holder: H): void {
    for (const [id, session] of [...this.sessionOf]) {
      if (this.bySession.get(session)?.some((c) => c.id === id && c.holder === holder)) this.closed(id);
    }
  }

  count(session: string): number {
    return this.bySession.get(session)?.length ?? 0;
  }

  /** Open connections of every session. */
  get size(): number {
    return this.sessionOf.size;
  }
}
