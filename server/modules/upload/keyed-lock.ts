/**
 * Runs tasks with the same key one after another, within this process. Different keys run freely.
 * Several API nodes sharing a data dir are kept apart by the atomic renames in the chunk store instead.
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
