import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startApp, tokenFor, type Harness } from './harness.js';

describe.each(databases)('smoke [%s]', (kind) => {
  let h: Harness;
  beforeAll(async () => { h = await startApp(kind); });
  afterAll(async () => { await h.close(); });

  it('admin logs in and reads the menu', async () => {
    const token = await tokenFor(h.app, 'admin');
    const res = await h.app.inject({ url: '/api/system_management/users/menu', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.length).toBeGreaterThan(5);
  });
});
