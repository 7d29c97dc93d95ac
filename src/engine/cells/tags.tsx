import { Badge, makeStyles, tokens, type BadgeProps } from '@fluentui/react-components';
import { resolveLabel } from '../../core/labels';
import type { Column } from '../../core/pageSchema';
import { registerCell, type CellContext, type CellProps } from './registry';

const useStyles = makeStyles({
  tags: { display: 'inline-flex', gap: tokens.spacingHorizontalXXS, flexWrap: 'nowrap', overflow: 'hidden', maxWidth: '100%' },
  /** A badge keeps its whole text; what does not fit is cut at the cell's edge (the cell's title has it all). */
  tag: { flexShrink: 0 },
});

/** Tags are arrays of strings or of `{ name }` (with `en_name` preferred in English when present). */
export function tagNames(value: unknown, lang: string): string[] {
  if (!Array.isArray(value)) return value === undefined || value === null || value === '' ? [] : [String(value)];
  return value.map((v) => {
    if (v && typeof v === 'object') {
      const o = v as { name?: unknown; en_name?: unknown; label?: unknown };
      if (lang.startsWith('en') && typeof o.en_name === 'string' && o.en_name) return o.en_name;
      return String(o.name ?? o.label ?? '');
    }
    return String(v);
  }).filter(Boolean);
}

/** Each tag as shown: through the field's inline options or the column's enum when it has one (a case's markers: word and colour), else as it is. */
function tagsOf(column: Column, value: unknown, { enums, lang }: CellContext): { name: string; color?: string }[] {
  const options = column.choices ?? enums[column.options ?? ''];
  return tagNames(value, lang).map((n) => {
    const o = options?.find((x) => String(x.value) === n);
    return o ? { name: resolveLabel(o.label, lang), color: o.color } : { name: n };
  });
}

function TagsCell({ column, value, context }: CellProps) {
  const s = useStyles();
  const tags = tagsOf(column, value, context);
  return (
    <span className={s.tags} title={tags.map((x) => x.name).join(', ')}>
      {tags.map((x, i) => <Badge key={`${x.name}-${i}`} className={s.tag} appearance="outline" color={(x.color ?? 'brand') as BadgeProps['color']}>{x.name}</Badge>)}
    </span>
  );
}

registerCell('tags', { text: (c, v, context) => tagsOf(c, v, context).map((x) => x.name).join(', '), Component: TagsCell });
