import fs from 'node:fs';
import path from 'node:path';
import { createElement as h, type ComponentType, type ReactElement } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolvePage } from '../../src/core/resolvePage';
import { loadedPage } from './resources';
import { installStorage } from './storage';

/**
 * One render test per page schema in schemas/pages (amis keeps one per renderer): each schema is
 * checked against the meta-schema, then rendered with react-dom/server inside FluentProvider and
 * i18next, in both languages, with its data handed in (no network).
 */
installStorage();

const PAGES_DIR = path.resolve('schemas/pages');
const files = fs.readdirSync(PAGES_DIR).filter((f) => f.endsWith('.json')).sort();
const read = (f: string) => JSON.parse(fs.readFileSync(path.join(PAGES_DIR, f), 'utf8'));
const enums = Object.assign({}, ...fs.readdirSync('schemas/enums').filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(fs.readFileSync(path.join('schemas/enums', f), 'utf8'))));

type Json = Record<string, any>;
let mods: {
  renderToString: (el: ReactElement) => string;
  FluentProvider: ComponentType<any>;
  SSRProvider: ComponentType<any>;
  lightTheme: object;
  i18n: { changeLanguage(l: string): Promise<unknown>; language: string };
  StaticRouter: ComponentType<any>;
  PreloadContext: React.Context<any>;
  ChoicesContext: React.Context<any>;
  useChoices: unknown;
  loadRenderer: (type: string) => Promise<ComponentType<any> | null>;
  SchemaView: ComponentType<any>;
  SchemaForm: ComponentType<any>;
  checkPageSchema: (p: unknown) => { path: string; message: string }[];
  checkPage: (p: unknown) => { path: string; message: string }[];
  resolveLabel: (l: unknown, lang: string) => string;
};

beforeAll(async () => {
  const [server, fluent, theme, i18n, router, preload, choices, options, registry, schemaPage, form, check, labels, session, pageCheck] = await Promise.all([
    import('react-dom/server'), import('@fluentui/react-components'), import('../../src/shell/theme'), import('../../src/i18n'),
    import('react-router-dom'), import('../../src/engine/preload'), import('../../src/widgets/search/choices'), import('../../src/engine/options'),
    import('../../src/engine/registry').then(async (m) => { await import('../../src/modules'); return m; }), import('../../src/engine/SchemaPage'), import('../../src/engine/form/SchemaForm'),
    import('../../src/core/pageSchemaCheck'), import('../../src/core/labels'), import('../../src/store/session'), import('../../src/engine/pageCheck'),
  ]);
  // Signed in as an administrator, so every action the schemas declare is shown.
  // (zustand answers react-dom/server from its initial state, so that is where the user goes.)
  Object.assign(session.useSession.getInitialState(), { user: { id: 1, name: 'admin', realname: 'Admin', identification: ['admin'], permission: [] } });
  mods = {
    renderToString: server.renderToString, FluentProvider: fluent.FluentProvider, SSRProvider: fluent.SSRProvider, lightTheme: theme.lightTheme, i18n: i18n.default,
    StaticRouter: router.StaticRouter, PreloadContext: preload.PreloadContext, ChoicesContext: choices.ChoicesContext, useChoices: options.useChoices,
    loadRenderer: registry.loadRenderer, SchemaView: schemaPage.SchemaView, SchemaForm: form.default, checkPageSchema: check.checkPageSchema, checkPage: pageCheck.checkPage,
    resolveLabel: labels.resolveLabel,
  };
  // Loading React, Fluent and the engine takes a while on a busy two-core machine; nothing here is timed.
}, 120_000);

/** A value for a column of the given cell kind, so every cell renderer runs. */
function sample(col: Json, i: number): unknown {
  switch (col.cell) {
    case 'number': case 'filesize': return 1536 * i;
    case 'progress': return 30 * i;
    case 'date': return '2026-05-13';
    case 'datetime': return '2026-05-13T08:30:00.000Z';
    case 'boolean': return i % 2;
    case 'enum': case 'tag': return enums[col.options]?.[0]?.value ?? 1;
    case 'tags': return [{ name: `Tag ${i}` }, 'plain'];
    case 'image': return '/favicon.ico';
    case 'json': return { k: i };
    case 'link': return 'https://example.org/';
    default: return `${col.field} ${i}`;
  }
}
/** The page with its fields filled from its resource, as the renderers get it. */
const resolved = (page: Json): Json => resolvePage(loadedPage(page as never)).schema;
const rowsFor = (page: Json) => [1, 2, 3].map((i) => Object.fromEntries([
  ['id', i], ['status', 1], ['locked', 0],
  ...[...(resolved(page).list?.columns ?? []), ...(resolved(page).detail?.sections ?? []).flatMap((s: Json) => s.fields)].map((c: Json) => [c.field, sample(c, i)]),
]));
const resourceOptions = (page: Json) => {
  const sources = JSON.stringify(page).match(/resource:[a-z_]+/g) ?? [];
  return Object.fromEntries(sources.map((s) => [s, [{ value: 1, label: 'Option one' }, { value: 2, label: 'Option two' }]]));
};

function render(page: Json, el: ReactElement, url = '/manage/page'): string {
  const rows = rowsFor(page);
  const preload = {
    rows, total: 57, record: rows[0], enums, options: resourceOptions(page),
    counts: Object.fromEntries((page.list?.tabs ?? []).map((t: Json, i: number) => [t.key, i === 0 ? 1200 : 7])),
  };
  const { renderToString, SSRProvider, FluentProvider, lightTheme, StaticRouter, PreloadContext, ChoicesContext, useChoices } = mods;
  return renderToString(h(SSRProvider, null, h(FluentProvider, { theme: lightTheme },
    h(StaticRouter, { location: url },
      h(PreloadContext.Provider, { value: preload },
        h(ChoicesContext.Provider, { value: useChoices }, el))))));
}

const loaded = (page: Json) => resolvePage(loadedPage(page as never));
/** Visible text: the HTML without tags, entities decoded the way the tests compare. */
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');

describe('page schemas in schemas/pages', () => {
  it('has at least the SystemUser worked example', () => {
    expect(files).toContain('SystemUser.json');
  });

  for (const file of files) {
    describe(file, () => {
      const page = read(file);

      it('matches the meta-schema, and names only kinds the registries hold', () => {
        expect(mods.checkPageSchema(page)).toEqual([]);
        expect(mods.checkPage(page)).toEqual([]);
        expect(`${page.alias}.json`).toBe(file);
      });

      for (const lang of ['zh-CN', 'en-US'] as const) {
        it(`renders its ${page.type} page in ${lang}`, async () => {
          await mods.i18n.changeLanguage(lang);
          const Renderer = await mods.loadRenderer(page.type);
          expect(Renderer, `renderer for ${page.type}`).toBeTruthy();
          const url = page.type === 'iframe' ? `/manage/page?${page.iframe?.urlParam ?? 'url'}=/update-log` : '/manage/page';
          const raw = render(page, h(Renderer!, { page: loaded(page), basePath: '/manage/page' }), url);
          const html = text(raw);
          const label = (l: unknown) => mods.resolveLabel(l, lang);
          expect(html).not.toMatch(/Unknown page type|未知的页面类型/);
          const r = resolved(page);
          if (page.type === 'list') {
            if (page.list.layout === 'cards') {
              // Cards: the grid with each row's title, its labelled fields, and lazily loaded thumbnails.
              const card = page.list.card;
              const columnLabel = (field: string) => label(r.list.columns.find((c: Json) => c.field === field)?.label ?? field);
              expect(raw).toContain('data-testid="card-grid"');
              for (const row of rowsFor(page)) expect(html, `card title ${row[card.title]}`).toContain(String(row[card.title]));
              for (const prop of card.meta ?? []) expect(html, `card field ${prop}`).toContain(columnLabel(prop));
              if (card.image) expect(raw).toMatch(/<img[^>]+loading="lazy"/);
            } else if (page.list.layout === 'grid') {
              // The grid (a roster): the side field's label, each answered value across, each cell's value drawn by its cell.
              const grid = page.list.grid;
              const columnLabel = (field: string) => label(r.list.columns.find((c: Json) => c.field === field)?.label ?? field);
              expect(raw).toContain('data-testid="grid-view"');
              expect(html).toContain(columnLabel(grid.row));
              for (const row of rowsFor(page)) expect(raw).toContain(`data-grid-column="${String(row[grid.column]).slice(0, 10)}"`);
              expect(raw.match(/data-grid-cell=/g)?.length).toBeGreaterThan(0);
            } else {
              for (const c of r.list.columns.filter((c: Json) => !c.hidden)) expect(html, `column ${c.field}`).toContain(label(c.label));
            }
            for (const t of page.list.tabs ?? []) expect(html, `tab ${t.key}`).toContain(label(t.label));
            if (page.list.tabs?.length) expect(html).toContain('999+');
            for (const a of page.list.toolbar ?? []) expect(html, `toolbar ${a.key}`).toContain(label(a.label));
            for (const i of (r.search?.items ?? []).filter((i: Json) => !i.drawerOnly)) expect(html, `search ${i.field}`).toContain(label(i.label));
            // The pager shows for 57 rows unless they fit on one page (spec §9: hidden on a single page).
            // A schema list without sizes starts at 100 (spec §9: the generic list's first option).
            const pageSize = page.list.defaultPageSize ?? page.list.pageSizes?.[0] ?? 100;
            const pagerText = lang === 'zh-CN' ? '共 57 条' : '57 in total';
            if (pageSize < 57) expect(html).toContain(pagerText);
            else expect(html).not.toContain(pagerText);
          }
          if (page.type === 'iframe') expect(raw).toMatch(/<iframe[^>]+src="http:\/\/localhost\/update-log"/);
          if (page.type === 'detail' || page.type === 'form') expect(html).toContain(label(page.title ?? page.alias));
        });
      }

      if (page.detail || page.type === 'list') {
        it('renders one record in its detail view', async () => {
          await mods.i18n.changeLanguage('en-US');
          const html = text(render(page, h(mods.SchemaView, { page: loadedPage(page as never), recordId: '1', basePath: '/manage/page' })));
          // The detail renderer is lazy; under react-dom/server the Suspense fallback shows, so render it directly too.
          expect(html).toBeDefined();
          const Detail = (await mods.loadRenderer('detail'))!;
          const direct = text(render(page, h(Detail, { page: loaded(page), recordId: '1', basePath: '/manage/page' })));
          for (const s of resolved(page).detail?.sections ?? []) {
            expect(direct).toContain(mods.resolveLabel(s.title, 'en-US'));
            for (const f of s.fields) expect(direct, `field ${f.field}`).toContain(mods.resolveLabel(f.label, 'en-US'));
          }
        });
      }

      if (page.form) {
        for (const creating of [true, false]) {
          it(`renders its form (${creating ? 'create' : 'edit'}) with every field title resolved`, async () => {
            await mods.i18n.changeLanguage('zh-CN');
            const form = resolved(page).form;
            const html = render(page, h(mods.SchemaForm, { form, creating, initialData: creating ? {} : rowsFor(page)[0], formId: 'f', onSubmit: () => {} }));
            const ui = form.uiSchema ?? {};
            const createOnly: string[] = form.createOnly ?? [];
            expect(Object.keys(form.schema.properties ?? {}).length, 'the form shows fields').toBeGreaterThan(0);
            for (const [name, def] of Object.entries<Json>(form.schema.properties ?? {})) {
              if (!creating && createOnly.includes(name)) continue;
              if (form.rules?.visibleIf?.[name]) continue;
              const title = ui[name]?.['ui:title'] ?? def.title;
              if (title && !(ui[name]?.['ui:widget'] === 'hidden')) expect(text(html), `field ${name}`).toContain(mods.resolveLabel(title, 'zh-CN'));
            }
            if (!creating) for (const name of createOnly) expect(html).not.toContain(`id="root_${name}"`);
          });
        }
      }
    });
  }
});

describe('a broken page schema', () => {
  it('is rejected with a message that names the problem and where it is', () => {
    const problems = mods.checkPageSchema({ alias: 'Broken', type: 'list', list: { columns: [{ prop: 'id' }], colums: [] } });
    expect(problems).toEqual(expect.arrayContaining([
      { path: '/', message: 'missing "resource"' },
      { path: '/list', message: 'unknown property "colums"' },
      { path: '/list/columns/0', message: 'missing "field"' },
      { path: '/list/columns/0', message: 'unknown property "prop"' },
    ]));
  });

  it('refuses a cards layout without its card, a download without its request, and a prompt without its field', () => {
    const columns = [{ field: 'name' }];
    expect(mods.checkPageSchema({ alias: 'Cards', type: 'list', resource: 'slides', list: { columns, layout: 'cards' } }))
      .toContainEqual({ path: '/list', message: 'missing "card"' });
    expect(mods.checkPageSchema({ alias: 'Dl', type: 'list', resource: 'slides', list: { columns, rowActions: [{ key: 'dl', label: 'Download', kind: 'download' }] } }))
      .toContainEqual({ path: '/list/rowActions/0', message: 'missing "request"' });
    expect(mods.checkPageSchema({ alias: 'Dl', type: 'list', resource: 'slides', list: { columns, rowActions: [{ key: 'dl', label: 'Download', kind: 'download', request: { method: 'POST', url: '/x' } }] } }))
      .toContainEqual({ path: '/list/rowActions/0', message: 'missing "permission"' });
    expect(mods.checkPageSchema({
      alias: 'Move', type: 'list', resource: 'slides',
      list: { columns, batchActions: [{ key: 'm', label: 'Move', kind: 'request', request: { method: 'POST', url: '/x', body: 'rows' }, prompt: { label: 'No.' } }] },
    })).toEqual(expect.arrayContaining([
      { path: '/list/batchActions/0/request/body', message: 'must be equal to one of the allowed values: "ids"' },
      { path: '/list/batchActions/0/prompt', message: 'missing "field"' },
    ]));
  });

  it('an unknown page type is refused by the meta-schema and shown as a visible error by the registry', async () => {
    expect(mods.checkPageSchema({ alias: 'Chart', type: 'chart' })).toEqual([
      { path: '/type', message: 'must be equal to one of the allowed values: "list", "form", "detail", "iframe"' },
    ]);
    await mods.i18n.changeLanguage('en-US');
    const html = text(render({}, h(mods.SchemaView, { page: { alias: 'Chart', version: 0, schema: { alias: 'Chart', type: 'chart' }, resource: null }, basePath: '/x' })));
    expect(html).toContain('Unknown page type: chart');
    await mods.i18n.changeLanguage('zh-CN');
    expect(text(render({}, h(mods.SchemaView, { page: { alias: 'Chart', version: 0, schema: { alias: 'Chart', type: 'chart' }, resource: null }, basePath: '/x' })))).toContain('未知的页面类型：chart');
  });
});
