import { describe, expect, it } from 'vitest';
import { KeyedLock } from './keyed-lock.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('KeyedLock', () => {
  it('runs tasks of one key one at a time, in order, whatever each one does', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const task = (name: string, fail = false) => async () => {
      log.push(`${name}:start`);
      await tick();
      log.push(`${name}:end`);
      if (fail) throw new Error(name);
      return name;
    };
    const results = await Promise.allSettled([lock.run('a', task('1')), lock.run('a', task('2', true)), lock.run('a', task('3'))]);
    expect(log).toEqual(['1:start', '1:end', '2:start', '2:end', '3:start', '3:end']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await tick();
    expect(lock.size).toBe(0);
  });

  it('lets different keys run side by side', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name}:start`);
      await tick();
      log.push(`${name}:end`);
    };
    await Promise.all([lock.run('a', task('a')), lock.run('b', task('b'))]);
    expect(log.slice(0, 2)).toEqual(['a:start', 'b:start']);
  });
});
