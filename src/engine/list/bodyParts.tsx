import { makeStyles, mergeClasses, shorthands, tableCellClassNames, tableRowClassNames, tokens } from '@fluentui/react-components';
import { forwardRef, type HTMLAttributes, type TdHTMLAttributes } from 'react';

/**
 * The body rows and cells of the shared table, drawn as plain `tr`/`td` in the look of Fluent's small table
 * (useTableRowStyles/useTableCellStyles: the border, hover and pressed colours, padding and alignment) and with its
 * class names. Fluent's TableRow and TableCell run focus-tracking hooks and context reads in every row and cell;
 * a page of rows held hundreds of them, a measurable part of opening a list (scripts/bench/navigation.ts). Focus
 * rings still come from the provider's focus-visible scope; the header keeps Fluent's components (one row).
 */
const useStyles = makeStyles({
  row: {
    display: 'table-row',
    color: tokens.colorNeutralForeground1,
    boxSizing: 'border-box',
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover, color: tokens.colorNeutralForeground1Hover },
    ':active': { backgroundColor: tokens.colorSubtleBackgroundPressed, color: tokens.colorNeutralForeground1Pressed },
    '@media (forced-colors: active)': { ':hover': { color: 'Highlight', ...shorthands.borderColor('Highlight') } },
  },
  cell: { display: 'table-cell', verticalAlign: 'middle', position: 'relative', padding: `0px ${tokens.spacingHorizontalS}` },
});

export const BodyRow = forwardRef<HTMLTableRowElement, HTMLAttributes<HTMLTableRowElement>>(function BodyRow({ className, ...rest }, ref) {
  const s = useStyles();
  return <tr ref={ref} className={mergeClasses(tableRowClassNames.root, s.row, className)} {...rest} />;
});

export function BodyCell({ className, ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  const s = useStyles();
  return <td className={mergeClasses(tableCellClassNames.root, s.cell, className)} {...rest} />;
}
