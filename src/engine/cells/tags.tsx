import { Badge, makeStyles, tokens } from '@fluentui/react-components';
import { registerCell, type CellProps } from './registry';

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

function TagsCell({ value, context }: CellProps) {
  const s = useStyles();
  const names = tagNames(value, context.lang);
  return (
    <span className={s.tags} title={names.join(', ')}>
      {names.map((n, i) => <Badge key={`${n}-${i}`} className={s.tag} appearance="outline" color="brand">{n}</Badge>)}
    </span>
  );
}

registerCell('tags', { text: (_c, v, { lang }) => tagNames(v, lang).join(', '), Component: TagsCell });
