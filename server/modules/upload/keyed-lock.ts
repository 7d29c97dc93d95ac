/**
 * Runs tasks with the same key one after another, within this process. Different keys run freely.
 * It does not reach other processes (cluster workers, API nodes sharing a data dir): what they must agree on
 * is decided on the shared disk instead — markers read back after writing, one finisher by an O_EXCL claim
 * (finish-claim.ts), the finished file published by rename(2).
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(() => undefined, () => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task running or waiting; for tests. */
  get size(): number {
    return this.tails.size;
  }
}
