import { createElement as h, type ReactElement } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolvePage } from '../../src/core/resolvePage';
import { loadedPage } from './resources';
import { installStorage } from './storage';

/**
 * docs/adding-a-page.md's promise: a cell kind, an action kind and a search widget are each one file and its
 * registration (tests/unit/kinds/), nothing else edited (no union, no meta-schema enum, no runner tool), and a page
 * uses them: the page check knows them from the registries, and the page renders with them.
 */
installStorage();

type Json = Record<string, any>;
const page: Json = {
  alias: 'ReagentStars', type: 'list', resource: 'reagents', title: { 'zh-CN': '试剂评分', 'en-US': 'Reagent ratings' },
  list: {
    columns: [{ field: 'name' }, { field: 'rank', cell: 'stars' }],
    rowActions: [{ key: 'twice', label: { 'zh-CN': '确认两次', 'en-US': 'Confirm twice' }, kind: 'confirm_twice' }],
  },
  search: { items: [{ field: 'name', widget: 'initials', label: { 'zh-CN': '缩写', 'en-US': 'Initials' } }] },
};

let mods: Json;
beforeAll(async () => {
  const [server, fluent, theme, i18n, router, preload, choices, options, registry, check, actions, session] = await Promise.all([
    import('react-dom/server'), import('@fluentui/react-components'), import('../../src/shell/theme'), import('../../src/i18n'),
    import('react-router-dom'), import('../../src/engine/preload'), import('../../src/widgets/search/choices'), import('../../src/engine/options'),
    import('../../src/engine/registry'), import('../../src/engine/pageCheck'), import('../../src/engine/actions'), import('../../src/store/session'),
  ]);
  // The three new kinds: importing each file is its registration.
  await Promise.all([import('./kinds/starsCell'), import('./kinds/confirmTwiceAction'), import('./kinds/initialsSearch')]);
  Object.assign(session.useSession.getInitialState(), { user: { id: 1, name: 'admin', realname: 'Admin', identification: ['admin'], permission: [] } });
  mods = { server, fluent, theme, i18n: i18n.default, router, preload, choices, options, registry, check, actions };
}, 120_000);

function render(el: ReactElement): string {
  const rows = [1, 2, 3].map((i) => ({ id: i, name: `Reagent ${i}`, rank: i }));
  const { server, fluent, theme, router, preload, choices, options } = mods;
  return server.renderToString(h(fluent.SSRProvider, null, h(fluent.FluentProvider, { theme: theme.lightTheme },
    h(router.StaticRouter, { location: '/manage/page' },
      h(preload.PreloadContext.Provider, { value: { rows, total: 3, enums: {}, options: {} } },
        h(choices.ChoicesContext.Provider, { value: options.useChoices }, el))))));
}

describe('adding a cell kind, an action kind and a search widget', () => {
  it('needs no other edit for the page check: it knows them from the registries, and still refuses a misspelled one', () => {
    expect(mods.check.checkPage(page)).toEqual([]);
    const misspelled = { ...page, list: { ...page.list, columns: [{ field: 'rank', cell: 'starz' }] } };
    expect(mods.check.checkPage(misspelled)).toEqual([{ path: '/list/columns/0/cell', message: expect.stringMatching(/^unknown cell kind "starz": one of .*stars/) }]);
  });

  it('draws a page that uses all three', async () => {
    await mods.i18n.changeLanguage('en-US');
    const List = await mods.registry.loadRenderer('list');
    const html = render(h(List, { page: resolvePage(loadedPage(page as never)), basePath: '/manage/page' }));
    expect(html).toContain('<span data-kind="stars">★★★</span>');
    expect(html).toContain('Confirm twice');
    expect(html).toMatch(/<input[^>]*data-kind="initials"[^>]*aria-label="Initials"/);
  });

  it('runs the new action with its own dialog', async () => {
    const notes: string[] = [];
    const handler = mods.actions.resolveAction('confirm_twice');
    let drawn: unknown = null;
    await handler(page.list.rowActions[0], [{ id: 1 }, { id: 2 }], {
      label: (l: Json) => l['en-US'], notify: (text: string) => notes.push(text),
      show: (draw: (done: (v: boolean) => void) => unknown) => new Promise((resolve) => { drawn = draw(resolve); (drawn as Json).props.children[0].props.onClick(); }),
    });
    expect(notes).toEqual(['Confirm twice: 2']);
  });

  it('refuses a second registration of a name (two files claiming one kind)', async () => {
    const cells = await import('../../src/engine/cells');
    const fields = await import('../../src/widgets/search/fields');
    expect(() => cells.registerCell('stars', { text: () => '' })).toThrow('cell kind "stars" is registered twice');
    expect(() => mods.actions.registerAction('confirm_twice', () => undefined)).toThrow('action kind "confirm_twice" is registered twice');
    expect(() => fields.registerSearchWidget('initials', () => null)).toThrow('search widget "initials" is registered twice');
  });
});
