import { Checkbox, Spinner, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ImageOff24Regular } from '@fluentui/react-icons';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CardColumns } from '../../core/cardFields';
import { useLabel } from '../../widgets/useLabel';
import type { Row } from '../dataProvider';
import type { RowsViewProps } from './DataTable';

/** Cards at least this wide; as many columns as fit (a responsive grid without breakpoints). */
const CARD_MIN_WIDTH = 240;
const IMAGE_HEIGHT = 150;

const useStyles = makeStyles({
  root: { position: 'relative', minHeight: '120px' },
  grid: { display: 'grid', gridTemplateColumns: `repeat(auto-fill, minmax(${CARD_MIN_WIDTH}px, 1fr))`, gap: tokens.spacingHorizontalM },
  card: {
    position: 'relative', display: 'flex', flexDirection: 'column', minWidth: 0, overflow: 'hidden',
    border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow2, ':hover': { boxShadow: tokens.shadow8 },
  },
  selected: { border: `1px solid ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
  preview: {
    height: `${IMAGE_HEIGHT}px`, display: 'flex', alignItems: 'center', justifyContent: 'center',
    backgroundColor: tokens.colorNeutralBackground3, color: tokens.colorNeutralForeground4,
  },
  image: { maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' },
  check: { position: 'absolute', top: tokens.spacingVerticalXS, left: tokens.spacingHorizontalXS, backgroundColor: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusMedium },
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`, minWidth: 0, flexGrow: 1 },
  title: { fontWeight: tokens.fontWeightSemibold, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  subtitle: { display: 'flex', gap: tokens.spacingHorizontalS, color: tokens.colorNeutralForeground2, overflow: 'hidden', whiteSpace: 'nowrap', minHeight: '20px' },
  meta: { display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: tokens.spacingHorizontalS, rowGap: '2px', fontSize: tokens.fontSizeBase200, marginTop: tokens.spacingVerticalXS },
  metaLabel: { color: tokens.colorNeutralForeground3, whiteSpace: 'nowrap' },
  metaValue: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 },
  actions: { borderTop: `1px solid ${tokens.colorNeutralStroke3}`, padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalXS}`, display: 'flex', justifyContent: 'flex-end' },
  head: { display: 'flex', alignItems: 'center', marginBottom: tokens.spacingVerticalS },
  empty: { textAlign: 'center', color: tokens.colorNeutralForeground3, padding: '32px' },
  overlay: { position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', backgroundColor: tokens.colorNeutralBackgroundAlpha, zIndex: 1 },
});

export interface CardGridProps extends RowsViewProps {
  card: CardColumns;
  /** The row's actions, at the foot of its card. */
  actions?(row: Row): ReactNode;
}

/**
 * A thumbnail that loads lazily (off-screen cards cost nothing) and shows a placeholder when there is none.
 * Our image routes read the HttpOnly cookie set at login: the session token never goes in an image URL.
 */
function Thumb({ src }: { src: unknown }) {
  const s = useStyles();
  const [failed, setFailed] = useState(false);
  if (typeof src !== 'string' || !src || failed) return <ImageOff24Regular aria-hidden />;
  return <img className={s.image} src={src} alt="" loading="lazy" onError={() => setFailed(true)} />;
}

/**
 * The cards layout of a list page: the same rows, selection and row actions as the table, drawn as a
 * grid of cards (thumbnail, title, a line of key values, a few labelled fields).
 */
export function CardGrid({ card, rows, rowKey, loading, selectable, selection, onSelectionChange, renderCell, actions }: CardGridProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  const keyOf = (row: Row, i: number) => (row[rowKey] !== undefined && row[rowKey] !== null ? String(row[rowKey]) : String(i));
  const keys = rows.map(keyOf);
  const allSelected = keys.length > 0 && keys.every((k) => selection[k]);
  const someSelected = keys.some((k) => selection[k]);
  const toggle = (key: string) => {
    const next = { ...selection };
    if (next[key]) delete next[key];
    else next[key] = true;
    onSelectionChange(next);
  };

  return (
    <div className={s.root} data-testid="card-grid">
      {selectable && rows.length ? (
        <div className={s.head}>
          <Checkbox label={t('table.selectAll')} checked={allSelected ? true : someSelected ? 'mixed' : false}
            onChange={() => onSelectionChange(allSelected ? {} : Object.fromEntries(keys.map((k) => [k, true])))} />
        </div>
      ) : null}
      <div className={s.grid}>
        {rows.map((row, i) => {
          const key = keys[i];
          const selected = !!selection[key];
          const title = renderCell(card.title, row);
          return (
            <article key={key} className={mergeClasses(s.card, selected && s.selected)} data-row-key={key} aria-selected={selectable ? selected : undefined}>
              {card.image ? <div className={s.preview}><Thumb src={row[card.image.field]} /></div> : null}
              {selectable ? (
                <Checkbox className={s.check} checked={selected} aria-label={t('table.selectRow')} onChange={() => toggle(key)} />
              ) : null}
              <div className={s.body}>
                <div className={s.title} data-column={card.title.field}>{title}</div>
                {card.subtitle.length ? (
                  <div className={s.subtitle}>
                    {card.subtitle.map((c) => <span key={c.field} data-column={c.field}>{renderCell(c, row)}</span>)}
                  </div>
                ) : null}
                {card.meta.length ? (
                  <dl className={s.meta} style={{ margin: 0 }}>
                    {card.meta.map((c) => [
                      <dt key={`${c.field}-l`} className={s.metaLabel}>{label(c.label)}</dt>,
                      <dd key={`${c.field}-v`} className={s.metaValue} style={{ margin: 0 }} data-column={c.field}>{renderCell(c, row)}</dd>,
                    ])}
                  </dl>
                ) : null}
              </div>
              {actions ? <div className={s.actions}>{actions(row)}</div> : null}
            </article>
          );
        })}
      </div>
      {!loading && !rows.length ? <div className={s.empty}>{t('table.empty')}</div> : null}
      {loading ? <div className={s.overlay}><Spinner size="small" label={t('app.loading')} /></div> : null}
    </div>
  );
}
