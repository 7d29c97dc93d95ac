import { Badge, makeStyles, tokens, type BadgeProps } from '@fluentui/react-components';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { fillTemplate } from '../../core/actions';
import { DATE_FORMAT, DATETIME_FORMAT } from '../../core/dateRanges';
import { formatFileSize } from '../../core/fileSize';
import { resolveLabel } from '../../core/labels';
import type { ColumnSchema } from '../../core/pageSchema';
import type { Row } from '../dataProvider';
import type { Enums } from '../schemaApi';

const useStyles = makeStyles({
  tags: { display: 'inline-flex', gap: tokens.spacingHorizontalXXS, flexWrap: 'nowrap', overflow: 'hidden', maxWidth: '100%' },
  /** A badge keeps its whole text; what does not fit is cut at the cell's edge (the cell's title has it all). */
  tag: { flexShrink: 0 },
  image: { height: '28px', maxWidth: '64px', objectFit: 'contain', verticalAlign: 'middle' },
  link: { color: tokens.colorBrandForegroundLink, textDecorationLine: 'none', ':hover': { textDecorationLine: 'underline' } },
  json: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
});

const BADGE_COLORS = new Set(['brand', 'danger', 'important', 'informative', 'severe', 'subtle', 'success', 'warning']);
export const badgeColor = (c?: string) => (c && BADGE_COLORS.has(c) ? c : 'informative') as BadgeProps['color'];

/** A cell's value as plain text (export, titles, sorting by text). */
export function cellText(column: ColumnSchema, value: unknown, enums: Enums, lang: string, yesNo: [string, string]): string {
  if (value === undefined || value === null || value === '') return '';
  switch (column.type) {
    case 'date': return dayjs(value as string).isValid() ? dayjs(value as string).format(DATE_FORMAT) : String(value);
    case 'datetime': return dayjs(value as string).isValid() ? dayjs(value as string).format(DATETIME_FORMAT) : String(value);
    case 'boolean': return value === true || value === 1 || value === '1' ? yesNo[0] : yesNo[1];
    case 'filesize': return formatFileSize(value);
    case 'enum': case 'tag': {
      const opt = enums[column.options ?? '']?.find((o) => String(o.value) === String(value));
      return opt ? resolveLabel(opt.label, lang) : String(value);
    }
    case 'tags': return tagNames(value, lang).join(', ');
    case 'json': return typeof value === 'string' ? value : JSON.stringify(value);
    default: return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

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

/** One table or detail cell by column type (spec: text, number, date, datetime, boolean, enum/tag, tags, link, filesize …). */
export function Cell({ column, row, enums }: { column: ColumnSchema; row: Row; enums: Enums }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const value = row[column.prop];
  let content: ReactNode;
  switch (column.type) {
    case 'enum':
    case 'tag': {
      const opt = enums[column.options ?? '']?.find((o) => String(o.value) === String(value));
      content = value === undefined || value === null || value === '' ? null
        : <Badge appearance="tint" color={badgeColor(opt?.color)}>{opt ? resolveLabel(opt.label, lang) : String(value)}</Badge>;
      break;
    }
    case 'tags':
      content = (
        <span className={s.tags} title={tagNames(value, lang).join(', ')}>
          {tagNames(value, lang).map((n, i) => <Badge key={`${n}-${i}`} className={s.tag} appearance="outline" color="brand">{n}</Badge>)}
        </span>
      );
      break;
    case 'image':
      // Our image routes read the HttpOnly cookie set at login: the session token never goes in an image URL.
      content = typeof value === 'string' && value ? <img className={s.image} src={value} alt="" loading="lazy" /> : null;
      break;
    case 'json':
      content = <span className={s.json}>{cellText(column, value, enums, lang, [t('table.yes'), t('table.no')])}</span>;
      break;
    default: {
      const text = cellText(column, value, enums, lang, [t('table.yes'), t('table.no')]);
      content = text ? <span title={text}>{text}</span> : text;
    }
  }
  // A link column without a template links to its own value.
  const template = column.link ?? (column.type === 'link' && typeof value === 'string' ? value : undefined);
  if (template && content !== null && content !== '') {
    const href = column.link ? fillTemplate(template, row) : template;
    return /^https?:\/\//.test(href)
      ? <a className={s.link} href={href} target="_blank" rel="noopener noreferrer">{content}</a>
      : <RouterLink className={s.link} to={href}>{content}</RouterLink>;
  }
  return <>{content}</>;
}
