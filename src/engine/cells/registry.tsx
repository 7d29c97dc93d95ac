import { makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useMemo, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { fillTemplate } from '../../core/actions';
import type { CellKind, Column } from '../../core/pageSchema';
import type { Row } from '../dataProvider';
import type { Enums } from '../schemaApi';
import { linkOpenerFor, type LinkOpener } from '../links';
import { namedRegistry } from '../../core/namedRegistry';
import { paletteName, type PaletteName } from '../../core/palette';
import { usePalette } from './palette';
import { loadCaseLinkSetting, useCaseLinkSetting } from './caseLinkSetting';

/**
 * Cell kind → how a value is drawn and how it reads as text (titles, exports), after amis's renderer
 * registry: each kind registers once (`cells/*.tsx`, one file per family), `Cell` finds it by the column's
 * `cell`. A new kind is a file and its line in `cells/index.ts` (or a module's own registration, src/modules); the
 * page check knows the kinds from here (`cellKinds`).
 */
/** `caseLinkNewTab`: a link to a case's detail page (`/case/…`) opens a new tab (system_config.case_link_new_tab). */
export interface CellContext { enums: Enums; lang: string; yesNo: [string, string]; caseLinkNewTab?: boolean }
/** `colour`: the palette colour the column's `colorField` gives this row (null: none). */
export interface CellProps { column: Column; value: unknown; row: Row; context: CellContext; colour?: PaletteName | null }

export interface CellKindDef {
  /** The value as plain text; '' for nothing. */
  text(column: Column, value: unknown, context: CellContext): string;
  /** Draws the value; default: its text with the whole text as the title. */
  Component?: ComponentType<CellProps>;
  /** The Component draws the row's colour itself (a badge's fill); otherwise the cell's text takes it. */
  colours?: boolean;
  /** A route template the cell links to when its column names no `link` (a pathology number: its case). */
  link?: string;
}

const kinds = namedRegistry<CellKindDef>('cell kind');

/** Adds a cell kind; a name registered twice throws (two files claiming one kind). */
export function registerCell(kind: CellKind, def: CellKindDef): void {
  kinds.register(kind, def);
}

/** The kinds registered: the designer's cell picker and the page check's list of known kinds. */
export const cellKinds = (): string[] => kinds.names();

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

/**
 * What every cell of a list or record reads (enums, language, yes/no words): made once per page, not per cell
 * (a list page draws hundreds of cells; a translation hook in each was a measurable part of a menu click).
 */
export function useCellContext(enums: Enums): CellContext {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const caseLinkNewTab = useCaseLinkSetting((st) => st.newTab);
  useEffect(() => { void loadCaseLinkSetting(); }, []);
  return useMemo(() => ({ enums, lang, yesNo: [t('table.yes'), t('table.no')], caseLinkNewTab }), [enums, lang, t, caseLinkNewTab]);
}

/** One table, card or detail cell by the column's kind; a column with `link` (or a link cell) links its content. */
export function Cell({ column, row, context }: { column: Column; row: Row; context: CellContext }) {
  const s = useStyles();
  const palette = usePalette();
  const value = row[column.field];
  const kind = kindOf(column);
  // A rule-given colour from another field of the row (a case's number_colour / status_colour).
  const colour = column.colorField ? paletteName(row[column.colorField]) : null;
  let content: ReactNode;
  if (kind.Component) content = <kind.Component column={column} value={value} row={row} context={context} colour={colour} />;
  else {
    const text = cellText(column, value, context);
    content = text ? <span title={text}>{text}</span> : null;
  }
  if (colour && content !== null && !kind.colours) content = <span className={palette.text(colour)} data-colour={colour}>{content}</span>;
  // A link cell without a template links to its own value; a kind may name its own (a pathology number → its case).
  const template = column.link ?? kind.link;
  // A template whose fields the row lacks (a slide in no case) gives no link, not a broken one.
  const href = template ? (filled(template, row) ? fillTemplate(template, row) : undefined)
    : column.cell === 'link' && typeof value === 'string' ? value : undefined;
  if (href && content !== null && !empty(value)) {
    if (/^https?:\/\//.test(href)) return <a className={s.link} href={href} target="_blank" rel="noopener noreferrer">{content}</a>;
    // rel=opener: the new tab starts with a copy of this tab's session storage (the sign-in); same origin, our own route.
    if (context.caseLinkNewTab && /^\/case\/[^/?]+/.test(href)) return <RouterLink className={s.link} to={href} target="_blank" rel="opener">{content}</RouterLink>;
    const opener = linkOpenerFor(href);
    return opener ? <OpenerLink className={s.link} to={href} opener={opener}>{content}</OpenerLink> : <RouterLink className={s.link} to={href}>{content}</RouterLink>;
  }
  return <>{content}</>;
}

const filled = (template: string, row: Row) => [...template.matchAll(/\{(\w+)\}/g)].every(([, key]) => !empty(row[key]));

/** A link into a module's page that its module opens faster (the viewer's slide links: src/modules/viewerLinks.ts). */
function OpenerLink({ className, to, opener, children }: { className: string; to: string; opener: LinkOpener; children: ReactNode }) {
  useEffect(() => opener.shown?.(), [opener]);
  return (
    <RouterLink className={className} to={to} onPointerEnter={() => opener.pointed?.()} onFocus={() => opener.pointed?.()} onClick={(e) => opener.clicked?.(to, e)}>
      {children}
    </RouterLink>
  );
}
