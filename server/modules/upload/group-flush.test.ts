import { describe, expect, it } from 'vitest';
import { GroupFlush } from './group-flush.js';

/** A flush that finishes only when the test says so, recording when each one started. */
function controlledSync() {
  const started: { file: string; finish: (err?: Error) => void }[] = [];
  const datasync = (file: string) => new Promise<void>((resolve, reject) => {
    started.push({ file, finish: (err) => (err ? reject(err) : resolve()) });
  });
  return { started, datasync };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('group flush', () => {
  it('flushes at once when idle, and makes callers who came during a flush share the one after it', async () => {
    const { started, datasync } = controlledSync();
    const flushes = new GroupFlush(datasync);
    const done: string[] = [];
    const first = flushes.flush('f').then(() => done.push('first'));
    await tick();
    expect(started).toHaveLength(1);
    // Written while the first flush runs: that flush may not cover them.
    const second = flushes.flush('f').then(() => done.push('second'));
    const third = flushes.flush('f').then(() => done.push('third'));
    await tick();
    expect(started).toHaveLength(1);
    started[0]!.finish();
    await first;
    await tick();
    expect(done).toEqual(['first']);
    expect(started).toHaveLength(2); // one flush for both latecomers
    started[1]!.finish();
    await Promise.all([second, third]);
    expect(done).toEqual(['first', 'second', 'third']);
  });

  it('keeps files apart, and a failed flush fails its callers only; the next ones flush again', async () => {
    const { started, datasync } = controlledSync();
    const flushes = new GroupFlush(datasync);
    const a = flushes.flush('a');
    const b = flushes.flush('b');
    await tick();
    expect(started.map((s) => s.file)).toEqual(['a', 'b']);
    const late = flushes.flush('a');
    started[0]!.finish(new Error('EIO'));
    await expect(a).rejects.toThrow('EIO');
    await tick();
    expect(started.map((s) => s.file)).toEqual(['a', 'b', 'a']);
    started[2]!.finish();
    started[1]!.finish();
    await expect(late).resolves.toBeUndefined();
    await expect(b).resolves.toBeUndefined();
  });
});
