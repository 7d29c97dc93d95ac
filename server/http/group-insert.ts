/**
 * Group commit for rows that many requests each must see written before they answer (the operation log):
 * a caller's row joins the batch being gathered and the promise resolves once a statement holding it has
 * committed. While one batch is being written the next gathers, so under load N concurrent writes cost about
 * one commit (one WAL fsync on SQLite at synchronous = FULL) instead of N, and they stop queueing one behind
 * another for SQLite's single write lock. Alone, a row is written at once: nothing waits for a timer.
 */
export class GroupInsert<Row> {
  private gathering: { rows: Row[]; done: Promise<void> } | undefined;
  private running: Promise<void> | undefined;

  constructor(
    /** Writes the rows in one statement (one transaction): all of them or none. */
    private readonly write: (rows: Row[]) => Promise<void>,
    /** Rows per statement at most: a bound on the statement's bound parameters. */
    private readonly maxRows = 200,
  ) {}

  /** Resolves once `row` is committed; rejects with the batch's error when its statement failed. */
  add(row: Row): Promise<void> {
    if (this.gathering && this.gathering.rows.length < this.maxRows) {
      this.gathering.rows.push(row);
      return this.gathering.done;
    }
    const rows = [row];
    // The batch starts once the one being written has ended (succeeded or not: each batch answers for its own).
    const before = this.running?.catch(() => undefined);
    const done = (async () => {
      await before;
      if (this.gathering?.rows === rows) this.gathering = undefined;
      await this.write(rows);
    })();
    this.gathering = { rows, done };
    const running = done.finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    // The caller handles `done`; this copy only orders the next batch after it.
    running.catch(() => undefined);
    return done;
  }
}
