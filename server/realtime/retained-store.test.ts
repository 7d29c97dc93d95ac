import { describe, expect, it } from 'vitest';
import { RetainedStore } from './retained-store.js';

const packet = (topic: string, payload: string) => ({ topic, payload });

describe('the retained packets the primary keeps', () => {
  it('keeps the last per topic; an empty payload clears it', () => {
    const store = new RetainedStore<{ topic: string; payload: string }>(10, 1000);
    store.set('a', packet('a', 'one'));
    store.set('a', packet('a', 'two'));
    store.set('b', packet('b', 'xx'));
    expect(store.values()).toEqual([packet('a', 'two'), packet('b', 'xx')]);
    store.set('a', packet('a', ''));
    expect(store.values()).toEqual([packet('b', 'xx')]);
    expect(store.payloadBytes).toBe(2);
  });

  it('lets the oldest go past the count or the bytes, and keeps none larger than all the bytes', () => {
    const store = new RetainedStore<{ topic: string; payload: string }>(3, 10);
    for (const t of ['a', 'b', 'c', 'd']) store.set(t, packet(t, 'x'));
    expect(store.values().map((p) => p.topic)).toEqual(['b', 'c', 'd']);
    store.set('e', packet('e', '123456789'));
    expect(store.values().map((p) => p.topic)).toEqual(['d', 'e']);
    expect(store.payloadBytes).toBe(10);
    store.set('f', packet('f', 'x'.repeat(11)));
    expect(store.values().map((p) => p.topic)).toEqual(['d', 'e']);
    expect([store.size, store.payloadBytes]).toEqual([2, 10]);
  });
});
