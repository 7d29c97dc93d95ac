import { createElement as h } from 'react';
import { registerAction } from '../../../src/engine/actions';

/**
 * An action kind added as this one file, its registration included: it asks with a dialog of its own (the runner's
 * `show`) and tells how many rows it was asked for.
 */
registerAction('confirm_twice', async (action, rows, { show, notify, label }) => {
  const sure = await show<boolean>((done) => h('div', { role: 'dialog', 'data-kind': 'confirm_twice' },
    h('button', { type: 'button', onClick: () => done(true) }, 'Yes'),
    h('button', { type: 'button', onClick: () => done(false) }, 'No')));
  if (sure) notify(`${label(action.label)}: ${rows.length}`, 'success');
});
