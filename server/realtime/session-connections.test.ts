import { describe, expect, it } from 'vitest';
import { sessionConnectionLimit } from './config.js';
import { SessionConnections } from './session-connections.js';

describe('a session’s realtime connections over every worker', () => {
  it('answers the oldest past the limit, whichever worker holds it, and forgets it', () => {
    const ledger = new SessionConnections<string>(3);
    expect(ledger.opened('s', 'a', 'w1')).toEqual([]);
    expect(ledger.opened('s', 'b', 'w2')).toEqual([]);
    expect(ledger.opened('other', 'x', 'w1')).toEqual([]);
    expect(ledger.opened('s', 'c', 'w1')).toEqual([]);
    expect(ledger.opened('s', 'd', 'w2')).toEqual([{ id: 'a', holder: 'w1' }]);
    expect(ledger.opened('s', 'e', 'w1')).toEqual([{ id: 'b', holder: 'w2' }]);
    expect(ledger.count('s')).toBe(3);
    expect(ledger.count('other')).toBe(1);
    // The close of one already answered changes nothing.
    ledger.closed('a');
    expect(ledger.count('s')).toBe(3);
  });

  it('makes room when a connection closes, and keeps nothing of a session whose connections all closed', () => {
    const ledger = new SessionConnections<string>(2);
    ledger.opened('s', 'a', 'w1');
    ledger.opened('s', 'b', 'w1');
    ledger.closed('a');
    expect(ledger.opened('s', 'c', 'w1')).toEqual([]);
    ledger.closed('b');
    ledger.closed('c');
    expect(ledger.count('s')).toBe(0);
    expect(ledger.size).toBe(0);
  });

  it('drops the connections of a worker that exited', () => {
    const ledger = new SessionConnections<string>(2);
    ledger.opened('s', 'a', 'w1');
    ledger.opened('s', 'b', 'w2');
    ledger.opened('t', 'c', 'w1');
    ledger.dropHolder('w1');
    expect([ledger.count('s'), ledger.count('t'), ledger.size]).toEqual([1, 0, 1]);
    expect(ledger.opened('s', 'd', 'w3')).toEqual([]);
  });

  it('REALTIME_SESSION_CONNECTIONS: 20 unless a whole number of at least 1', () => {
    expect(sessionConnectionLimit({})).toBe(20);
    expect(sessionConnectionLimit({ REALTIME_SESSION_CONNECTIONS: '5' })).toBe(5);
    for (const bad of ['0', '-3', 'many', '']) expect(sessionConnectionLimit({ REALTIME_SESSION_CONNECTIONS: bad }), bad).toBe(20);
  });
});
