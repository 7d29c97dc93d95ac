import { Badge, type BadgeProps } from '@fluentui/react-components';
import { resolveLabel } from '../../core/labels';
import type { Column } from '../../core/pageSchema';
import { usePalette } from './palette';
import { registerCell, type CellContext, type CellProps } from './registry';

/** Enum and tag cells: the option's label on a badge in the option's colour. */
const BADGE_COLORS = new Set(['brand', 'danger', 'important', 'informative', 'severe', 'subtle', 'success', 'warning']);
const badgeColor = (c?: string) => (c && BADGE_COLORS.has(c) ? c : 'informative') as BadgeProps['color'];

const optionOf = (column: Column, value: unknown, { enums }: CellContext) => enums[column.options ?? '']?.find((o) => String(o.value) === String(value));
const text = (column: Column, value: unknown, context: CellContext) => {
  const opt = optionOf(column, value, context);
  return opt ? resolveLabel(opt.label, context.lang) : String(value);
};

/** With a row colour (the column's colorField, e.g. a case's status_colour) the badge takes that palette tint instead of the option's. */
function EnumCell({ column, value, context, colour }: CellProps) {
  const palette = usePalette();
  if (value === undefined || value === null || value === '') return null;
  return (
    <Badge appearance="tint" color={badgeColor(optionOf(column, value, context)?.color)} className={palette.badge(colour)} data-colour={colour ?? undefined}>
      {text(column, value, context)}
    </Badge>
  );
}

registerCell('enum', { text, Component: EnumCell, colours: true });
registerCell('tag', { text, Component: EnumCell, colours: true });
