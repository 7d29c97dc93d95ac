import { Badge, makeStyles, tokens, type BadgeProps } from '@fluentui/react-components';
import { enumOptionsOf } from '../../core/enumValue';
import { resolveLabel } from '../../core/labels';
import type { Column } from '../../core/pageSchema';
import { usePalette } from './palette';
import { registerCell, type CellContext, type CellProps } from './registry';

/** Enum and tag cells: the option's label on a badge in the option's colour; a list of options (`a,b`) a badge each. */
const BADGE_COLORS = new Set(['brand', 'danger', 'important', 'informative', 'severe', 'subtle', 'success', 'warning']);
const badgeColor = (c?: string) => (c && BADGE_COLORS.has(c) ? c : 'informative') as BadgeProps['color'];

const useStyles = makeStyles({ several: { display: 'inline-flex', gap: tokens.spacingHorizontalXXS } });

// A field's inline options (one a hospital added) or the column's enum.
const optionsOf = (column: Column, value: unknown, { enums }: CellContext) => enumOptionsOf(column.choices ?? enums[column.options ?? ''], value);
const text = (column: Column, value: unknown, context: CellContext) =>
  optionsOf(column, value, context)?.map((o) => resolveLabel(o.label, context.lang)).join(', ') ?? String(value);

/** With a row colour (the column's colorField, e.g. a case's status_colour) the badge takes that palette tint instead of the option's. */
function EnumCell(props: CellProps) {
  const { column, value, context, colour } = props;
  const palette = usePalette();
  const s = useStyles();
  if (value === undefined || value === null || value === '') return null;
  // Another resource's rows or a named lookup (a person, a hospital): its name as plain text, no badge.
  if (!column.choices && /^(resource|lookup):/.test(column.options ?? '')) {
    const name = text(column, value, context);
    return <span title={name}>{name}</span>;
  }
  const options = optionsOf(column, value, context);
  if (!options || options.length === 1) {
    return (
      <Badge appearance="tint" color={badgeColor(options?.[0]?.color)} className={palette.badge(colour)} data-colour={colour ?? undefined}>
        {text(column, value, context)}
      </Badge>
    );
  }
  return (
    <span className={s.several} title={text(column, value, context)}>
      {options.map((o) => (
        <Badge key={String(o.value)} appearance="tint" color={badgeColor(o.color)} className={palette.badge(colour)} data-colour={colour ?? undefined}>
          {resolveLabel(o.label, context.lang)}
        </Badge>
      ))}
    </span>
  );
}

registerCell('enum', { text, Component: EnumCell, colours: true });
registerCell('tag', { text, Component: EnumCell, colours: true });
