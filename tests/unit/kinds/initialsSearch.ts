import { createElement as h } from 'react';
import { registerSearchWidget } from '../../../src/widgets/search/fields';

/** A search widget added as this one file, its registration included: a box for a name's initials, kept upper case. */
registerSearchWidget('initials', ({ value, label, onChange }) => h('input', {
  'data-kind': 'initials', 'aria-label': label, maxLength: 4, value: typeof value === 'string' ? value : '',
  onChange: (e: { target: { value: string } }) => onChange(e.target.value.toUpperCase()),
}));
