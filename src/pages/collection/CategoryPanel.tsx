import {
  Button, CounterBadge, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, Tooltip, makeStyles, mergeClasses, tokens,
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular, Edit20Regular, Folder20Regular, FolderOpen20Regular, MoreHorizontal20Regular, Star20Regular } from '@fluentui/react-icons';
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CategoryKey } from './categoryFilter';
import type { Category, Totals } from './collectionApi';

const useStyles = makeStyles({
  root: {
    display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, width: '240px', flexShrink: 0,
    paddingRight: tokens.spacingHorizontalM, borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  head: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', paddingBottom: tokens.spacingVerticalS },
  heading: { margin: 0, fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  row: { display: 'flex', alignItems: 'center', borderRadius: tokens.borderRadiusMedium, ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover } },
  selected: { backgroundColor: tokens.colorNeutralBackground1Selected, ':hover': { backgroundColor: tokens.colorNeutralBackground1Selected } },
  pick: { flexGrow: 1, justifyContent: 'flex-start', minWidth: 0, fontWeight: tokens.fontWeightRegular },
  pickSelected: { fontWeight: tokens.fontWeightSemibold, color: tokens.colorBrandForeground1 },
  name: { flexGrow: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', textAlign: 'start' },
  divider: { height: '1px', backgroundColor: tokens.colorNeutralStroke2, marginBlock: tokens.spacingVerticalXS },
  empty: { color: tokens.colorNeutralForeground3, padding: tokens.spacingHorizontalS },
});

export interface CategoryPanelProps {
  categories: Category[];
  totals: Totals | null;
  selected: CategoryKey;
  onSelect(key: CategoryKey): void;
  onCreate(): void;
  onRename(category: Category): void;
  onDelete(category: Category): void;
}

/** The left column of CaseCollection: All, Uncategorised and the doctor's own categories, each with its count. */
export function CategoryPanel({ categories, totals, selected, onSelect, onCreate, onRename, onDelete }: CategoryPanelProps) {
  const s = useStyles();
  const { t } = useTranslation();

  const entry = (key: CategoryKey, icon: ReactElement, name: string, count: number | undefined, menu?: ReactNode) => {
    const isSelected = selected === key;
    return (
      <div key={String(key)} className={mergeClasses(s.row, isSelected && s.selected)} data-testid="category-entry" data-category={String(key)}>
        <Button appearance="transparent" icon={icon} className={mergeClasses(s.pick, isSelected && s.pickSelected)} aria-pressed={isSelected}
          onClick={() => onSelect(key)}>
          <span className={s.name} title={name}>{name}</span>
          {count === undefined ? null : <CounterBadge count={count} showZero appearance="ghost" color="informative" data-testid="category-count" />}
        </Button>
        {menu}
      </div>
    );
  };

  return (
    <nav className={s.root} aria-label={t('collection.categories')} data-testid="category-panel">
      <div className={s.head}>
        <h3 className={s.heading}>{t('collection.categories')}</h3>
        <Tooltip content={t('collection.newCategory')} relationship="label">
          <Button appearance="subtle" icon={<Add20Regular />} onClick={onCreate} data-testid="category-create" />
        </Tooltip>
      </div>
      {entry('all', <Star20Regular />, t('collection.all'), totals?.all)}
      {entry('none', <Folder20Regular />, t('collection.uncategorised'), totals?.none)}
      <div className={s.divider} />
      {categories.length ? categories.map((c) => entry(c.id, <FolderOpen20Regular />, c.name, c.item_count, (
        <Menu>
          <MenuTrigger disableButtonEnhancement>
            <Button appearance="subtle" size="small" icon={<MoreHorizontal20Regular />} aria-label={t('collection.actionsFor', { name: c.name })} data-testid="category-menu" />
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              <MenuItem icon={<Edit20Regular />} onClick={() => onRename(c)} data-testid="category-rename">{t('collection.rename')}</MenuItem>
              <MenuItem icon={<Delete20Regular />} onClick={() => onDelete(c)} data-testid="category-delete">{t('collection.delete')}</MenuItem>
            </MenuList>
          </MenuPopover>
        </Menu>
      ))) : <div className={s.empty}>{t('collection.noCategories')}</div>}
    </nav>
  );
}
