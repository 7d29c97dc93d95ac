import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResource, type ResourceDef } from '../../server/resources/definition.js';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/** Issue 9: resource options name their rows per UI language (hospitals, menus, labels, permissions). */
describe.each(databases)('engine: per-language resource option labels [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
  });
  afterAll(async () => { await h.close(); });

  interface Summary { name: string; route: string; optionLabel: string | Record<string, string>; optionValue: string }
  const summaries = async () => (await call(h.app, 'GET', '/api/resources', { token: admin })).json().data as Summary[];

  it('GET /api/resources names a label column per language where the rows have one', async () => {
    const byName = new Map((await summaries()).map((r) => [r.name, r]));
    expect(byName.get('hospitals')!.optionLabel).toEqual({ 'zh-CN': 'name', 'en-US': 'en_name' });
    expect(byName.get('menus')!.optionLabel).toEqual({ 'zh-CN': 'name', 'en-US': 'en_name' });
    expect(byName.get('labels')!.optionLabel).toEqual({ 'zh-CN': 'name', 'en-US': 'en_name' });
    expect(byName.get('permissions')!.optionLabel).toEqual({ 'zh-CN': 'description', 'en-US': 'en_description' });
    expect(byName.get('users')!.optionLabel).toBe('realname');
    // Roles name themselves in both languages too: the shipped ones from the seed, by migration on an upgrade.
    expect(byName.get('roles')!.optionLabel).toEqual({ 'zh-CN': 'name', 'en-US': 'en_name' });
  });

  it('every label column it names comes back in the rows a select loads, in both languages', async () => {
    const label = await call(h.app, 'POST', '/api/config/labels/store', { token: admin, payload: { name: '疑难', en_name: 'Difficult' } });
    expect(label.statusCode, label.body).toBe(200);
    const perLanguage = (await summaries()).filter((r) => typeof r.optionLabel === 'object');
    expect(perLanguage.length).toBeGreaterThanOrEqual(4);
    for (const r of perLanguage) {
      const res = await call(h.app, 'GET', `${r.route}/lists?page_size=5`, { token: admin });
      expect(res.statusCode, r.name).toBe(200);
      const rows = res.json().data.data as Record<string, unknown>[];
      expect(rows.length, r.name).toBeGreaterThan(0);
      for (const c of [...Object.values(r.optionLabel), r.optionValue]) expect(Object.keys(rows[0]), `${r.name}.${c}`).toContain(c);
    }
    const hospitals = (await call(h.app, 'GET', '/api/config/hospitals/lists', { token: admin })).json().data.data as Record<string, unknown>[];
    expect(hospitals.map((x) => [x.name, x.en_name])).toContainEqual(['示范医院总院', 'Demo General Hospital']);
    const roles = (await call(h.app, 'GET', '/api/system_management/roles/lists?page_size=100', { token: admin })).json().data.data as { name: string; en_name: string | null }[];
    expect(roles.map((x) => [x.name, x.en_name])).toContainEqual(['初诊医生', 'First-diagnosis doctor']);
  });

  it('a resource file naming a label column it does not have is refused at start', () => {
    const def = (optionLabel: ResourceDef['optionLabel']): ResourceDef => ({
      name: 'things', table: 'things', route: '/api/things', optionLabel,
      permissions: { list: 'x', read: 'x', create: 'x', update: 'x', delete: 'x' },
      columns: { id: { type: 'integer' }, name: { type: 'string' }, secret: { type: 'string', readable: false } },
    } as ResourceDef);
    expect(() => checkResource(def({ 'zh-CN': 'name', 'en-US': 'en_name' }), 'things.json')).toThrow(/en_name/);
    expect(() => checkResource(def('secret'), 'things.json')).toThrow(/secret/);
    expect(checkResource(def({ 'zh-CN': 'name', 'en-US': 'name' }), 'things.json').name).toBe('things');
  });
});
