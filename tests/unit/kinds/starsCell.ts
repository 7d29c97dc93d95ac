import { createElement as h } from 'react';
import { registerCell } from '../../../src/engine/cells';

/** A rating drawn as stars: a cell kind added as this one file, its registration included (docs/adding-a-page.md). */
registerCell('stars', {
  text: (_column, value) => '★'.repeat(Math.max(0, Math.min(5, Number(value) || 0))),
  Component: ({ value }) => h('span', { 'data-kind': 'stars' }, '★'.repeat(Math.max(0, Math.min(5, Number(value) || 0)))),
});
