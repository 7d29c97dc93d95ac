import { Badge, type BadgeProps } from '@fluentui/react-components';
import { resolveLabel } from '../../core/labels';
import type { Column } from '../../core/pageSchema';
import { registerCell, type CellContext, type CellProps } from './registry';

/** Enum and tag cells: the option's label on a badge in the option's colour. */
const BADGE_COLORS = new Set(['brand', 'danger', 'important', 'informative', 'severe', 'subtle', 'success', 'warning']);
const badgeColor = (c?: string) => (c && BADGE_COLORS.has(c) ? c : 'informative') as BadgeProps['color'];

const optionOf = (column: Column, value: unknown, { enums }: CellContext) => enums[column.options ?? '']?.find((o) => String(o.value) === String(value));
const text = (column: Column, value: unknown, context: CellContext) => {
  const opt = optionOf(column, value, context);
  return opt ? resolveLabel(opt.label, context.lang) : String(value);
};

function EnumCell({ column, value, context }: CellProps) {
  if (value === undefined || value === null || value === '') return null;
  return <Badge appearance="tint" color={badgeColor(optionOf(column, value, context)?.color)}>{text(column, value, context)}</Badge>;
}

registerCell('enum', { text, Component: EnumCell });
registerCell('tag', { text, Component: EnumCell });
