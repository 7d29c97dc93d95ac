import { Button, Link, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { Search20Regular } from '@fluentui/react-icons';
import { Suspense, useEffect, useState } from 'react';
import { lazyChunk } from '../../shell/lazyChunk';
import { useTranslation } from 'react-i18next';
import { isEmptyValue, type FilterCondition } from '../../core/filters';
import type { SearchField as SearchFieldSchema } from '../../core/pageSchema';
import { useLabel } from '../useLabel';
import { KeywordBox } from './KeywordBox';
import { SearchField } from './SearchField';

// The drawer is its own chunk: most visits never open it.
const SearchDrawer = lazyChunk(() => import('./SearchDrawer'));

const useStyles = makeStyles({
  root: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalM, rowGap: tokens.spacingVerticalS },
  item: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, minWidth: '0' },
  label: { color: tokens.colorNeutralForeground2, whiteSpace: 'nowrap' },
  field: { width: '180px' },
  wide: { width: '340px' },
  active: { color: tokens.colorBrandForeground1, fontWeight: tokens.fontWeightSemibold },
  /** A search page's keyword box: first, on a line of its own, wide. */
  prominent: { flexBasis: '100%', display: 'flex' },
});

export interface SearchApply {
  params?: Record<string, unknown>;
  filter?: FilterCondition[];
  search?: string;
}

export interface SearchBarProps {
  items: SearchFieldSchema[];
  manual?: boolean;
  keyword?: boolean;
  /** The keyword box large, on its own line (a search page). */
  prominent?: boolean;
  /** The keyword box's placeholder, already in the current language. */
  placeholder?: string;
  /** The applied search-form values (`params` in the address). */
  values: Record<string, unknown>;
  search: string;
  filter: FilterCondition[];
  /** Search history is kept per search type (spec §5); the page's alias is the type. */
  historyKey: string;
  onApply(next: SearchApply): void;
}

const clean = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([, v]) => !isEmptyValue(v)));

/**
 * The search bar of spec §2: items with show !== false, a keyword box, a More link to the drawer,
 * and in manual mode a Search button (otherwise every change searches at once).
 */
export function SearchBar({ items, manual, keyword, prominent, placeholder, values, search, filter, historyKey, onApply }: SearchBarProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  const [draft, setDraft] = useState(values);
  const [drawer, setDrawer] = useState(false);
  const [drawerLoaded, setDrawerLoaded] = useState(false);
  const key = JSON.stringify(values);
  useEffect(() => setDraft(values), [key]); // eslint-disable-line react-hooks/exhaustive-deps -- key holds the values by value; the object is new each render

  const barItems = items.filter((i) => !i.drawerOnly);
  const hiddenActive = items.some((i) => i.drawerOnly && !isEmptyValue(values[i.key])) || filter.length > 0;
  const change = (name: string, value: unknown) => {
    const next = { ...draft, [name]: value };
    setDraft(next);
    if (!manual) onApply({ params: clean(next) });
  };
  const openDrawer = () => {
    setDrawerLoaded(true);
    setDrawer(true);
  };

  const keywordBox = keyword
    ? <KeywordBox large={prominent} placeholder={placeholder} value={search} historyKey={historyKey} onSearch={(text) => onApply({ search: text })} />
    : null;

  return (
    <div className={s.root} data-testid="search-bar">
      {keywordBox && prominent ? <div className={s.prominent}>{keywordBox}</div> : keywordBox}
      {barItems.map((item) => (
        <label key={item.key} className={s.item}>
          <span className={s.label}>{label(item.label)}</span>
          <span className={item.widget.endsWith('range') ? s.wide : s.field}>
            <SearchField item={item} label={label(item.label)} value={draft[item.key]} onChange={(v) => change(item.key, v)} />
          </span>
        </label>
      ))}
      {manual ? <Button appearance="primary" icon={<Search20Regular />} onClick={() => onApply({ params: clean(draft) })}>{t('search.search')}</Button> : null}
      {items.length ? (
        <Link onClick={openDrawer} className={hiddenActive ? s.active : undefined} data-testid="search-more">
          {hiddenActive ? t('search.moreActive') : t('search.more')}
        </Link>
      ) : null}
      {drawerLoaded ? (
        <Suspense fallback={<Spinner size="tiny" />}>
          <SearchDrawer open={drawer} onClose={() => setDrawer(false)} items={items} values={values} filter={filter}
            onApply={({ params, filter: f }) => onApply({ params: clean(params), filter: f })}
            onReset={() => onApply({ params: {}, filter: [], search: '' })} />
        </Suspense>
      ) : null}
    </div>
  );
}
