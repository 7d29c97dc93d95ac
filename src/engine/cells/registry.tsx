import { makeStyles, tokens } from '@fluentui/react-components';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { fillTemplate } from '../../core/actions';
import type { CellKind, Column } from '../../core/pageSchema';
import type { Row } from '../dataProvider';
import type { Enums } from '../schemaApi';

/**
 * Cell kind → how a value is drawn and how it reads as text (titles, exports), after amis's renderer
 * registry: each kind registers once (`cells/*.tsx`, one file per family), `Cell` finds it by the column's
 * `cell`. A new kind is a file and a line in `cells/index.ts`; the meta-schema lists the kinds a page may use.
 */
export interface CellContext { enums: Enums; lang: string; yesNo: [string, string] }
export interface CellProps { column: Column; value: unknown; row: Row; context: CellContext }

export interface CellKindDef {
  /** The value as plain text; '' for nothing. */
  text(column: Column, value: unknown, context: CellContext): string;
  /** Draws the value; default: its text with the whole text as the title. */
  Component?: ComponentType<CellProps>;
}

const kinds = new Map<string, CellKindDef>();

export function registerCell(kind: CellKind, def: CellKindDef): void {
  kinds.set(kind, def);
}

/** The kinds registered, for the page designer's cell picker. */
export const cellKinds = (): string[] => [...kinds.keys()];

const plain: CellKindDef = { text: (_c, v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)) };
const kindOf = (column: Column) => kinds.get(column.cell) ?? kinds.get('text') ?? plain;

const empty = (v: unknown) => v === undefined || v === null || v === '';

/** A cell's value as plain text (export, titles, sorting by text). */
export function cellText(column: Column, value: unknown, context: CellContext): string {
  return empty(value) ? '' : kindOf(column).text(column, value, context);
}

const useStyles = makeStyles({
  link: { color: tokens.colorBrandForegroundLink, textDecorationLine: 'none', ':hover': { textDecorationLine: 'underline' } },
});

/** One table, card or detail cell by the column's kind; a column with `link` (or a link cell) links its content. */
export function Cell({ column, row, enums }: { column: Column; row: Row; enums: Enums }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const context: CellContext = { enums, lang: i18n.language, yesNo: [t('table.yes'), t('table.no')] };
  const value = row[column.field];
  const kind = kindOf(column);
  let content: ReactNode;
  if (kind.Component) content = <kind.Component column={column} value={value} row={row} context={context} />;
  else {
    const text = cellText(column, value, context);
    content = text ? <span title={text}>{text}</span> : null;
  }
  // A link cell without a template links to its own value.
  const template = column.link ?? (column.cell === 'link' && typeof value === 'string' ? value : undefined);
  if (template && content !== null && !empty(value)) {
    const href = column.link ? fillTemplate(template, row) : template;
    return /^https?:\/\//.test(href)
      ? <a className={s.link} href={href} target="_blank" rel="noopener noreferrer">{content}</a>
      : <RouterLink className={s.link} to={href}>{content}</RouterLink>;
  }
  return <>{content}</>;
}
