import { describe, expect, it } from 'vitest';
import { GroupInsert } from './group-insert.js';

/** A writer whose statements finish only when the test says so, recording the rows of each. */
function controlledWrite() {
  const written: { rows: number[]; finish: (err?: Error) => void }[] = [];
  const write = (rows: number[]) => new Promise<void>((resolve, reject) => {
    written.push({ rows: [...rows], finish: (err) => (err ? reject(err) : resolve()) });
  });
  return { written, write };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('group insert', () => {
  it('writes a lone row at once, and rows that come while a statement runs together in the next one', async () => {
    const { written, write } = controlledWrite();
    const group = new GroupInsert(write);
    const done: number[] = [];
    const first = group.add(1).then(() => done.push(1));
    await tick();
    expect(written.map((w) => w.rows)).toEqual([[1]]);
    const later = [2, 3, 4].map((n) => group.add(n).then(() => done.push(n)));
    await tick();
    expect(written).toHaveLength(1); // the second batch waits for the first to commit
    written[0]!.finish();
    await first;
    await tick();
    expect(written.map((w) => w.rows)).toEqual([[1], [2, 3, 4]]);
    expect(done).toEqual([1]); // nobody hears "written" before their own statement committed
    written[1]!.finish();
    await Promise.all(later);
    expect(done).toEqual([1, 2, 3, 4]);
  });

  it('fails only the rows of a failed statement, and bounds the rows per statement', async () => {
    const { written, write } = controlledWrite();
    const group = new GroupInsert(write, 2);
    const a = group.add(1);
    const b = group.add(2);
    const c = group.add(3);
    await tick();
    expect(written.map((w) => w.rows)).toEqual([[1, 2]]);
    written[0]!.finish(new Error('SQLITE_FULL'));
    await expect(a).rejects.toThrow('SQLITE_FULL');
    await expect(b).rejects.toThrow('SQLITE_FULL');
    await tick();
    expect(written.map((w) => w.rows)).toEqual([[1, 2], [3]]);
    written[1]!.finish();
    await expect(c).resolves.toBeUndefined();
  });
});
