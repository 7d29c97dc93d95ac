import {
  Button, DrawerBody, DrawerFooter, DrawerHeader, DrawerHeaderTitle, Field, OverlayDrawer, Tab, TabList, makeStyles, tokens,
} from '@fluentui/react-components';
import { Dismiss24Regular } from '@fluentui/react-icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { customToFilter, filterToCustom, type CustomCondition } from '../../core/customSearch';
import type { FilterCondition } from '../../core/filters';
import type { SearchField as SearchFieldSchema } from '../../core/pageSchema';
import { useLabel } from '../useLabel';
import { CustomSearchTab } from './CustomSearchTab';
import { SearchField } from './SearchField';

/** Spec §9: drawer default width 420 px. */
export const DRAWER_WIDTH = 420;

const useStyles = makeStyles({
  drawer: { width: `${DRAWER_WIDTH}px`, maxWidth: '100vw' },
  fields: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, paddingBlock: tokens.spacingVerticalM },
  tabs: { marginBottom: tokens.spacingVerticalS },
  footer: { justifyContent: 'flex-end' },
});

export interface SearchDrawerProps {
  open: boolean;
  onClose(): void;
  items: SearchFieldSchema[];
  values: Record<string, unknown>;
  filter: FilterCondition[];
  onApply(next: { params: Record<string, unknown>; filter: FilterCondition[] }): void;
  onReset(): void;
}

/**
 * The search drawer of spec §2/§5: senior search (every item) and custom search (items with
 * `customSearch`), with Confirm and Reset-filter buttons. Edits stay a draft until Confirm.
 */
export default function SearchDrawer({ open, onClose, items, values, filter, onApply, onReset }: SearchDrawerProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  const customItems = items.filter((i) => i.customSearch);
  const [tab, setTab] = useState<'senior' | 'custom'>(filter.length ? 'custom' : 'senior');
  const [draft, setDraft] = useState(values);
  const [conditions, setConditions] = useState<CustomCondition[]>(() => filterToCustom(filter));

  useEffect(() => {
    if (!open) return;
    setDraft(values);
    setConditions(filterToCustom(filter));
  }, [open]); // eslint-disable-line react-hooks/exhaustive-deps -- the draft is taken when the drawer opens, not on each change behind it

  return (
    <OverlayDrawer open={open} position="end" className={s.drawer} onOpenChange={(_, d) => !d.open && onClose()} data-testid="search-drawer">
      <DrawerHeader>
        <DrawerHeaderTitle action={<Button appearance="subtle" aria-label={t('dialog.close')} icon={<Dismiss24Regular />} onClick={onClose} />}>
          {t('search.drawerTitle')}
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody>
        <TabList className={s.tabs} selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as 'senior' | 'custom')}>
          <Tab value="senior">{t('search.senior')}</Tab>
          {customItems.length ? <Tab value="custom">{t('search.custom')}</Tab> : null}
        </TabList>
        {tab === 'senior' ? (
          <div className={s.fields}>
            {items.map((item) => (
              <Field key={item.key} label={label(item.label)}>
                <SearchField item={item} stacked label={label(item.label)} value={draft[item.key]} onChange={(v) => setDraft((d) => ({ ...d, [item.key]: v }))} />
              </Field>
            ))}
          </div>
        ) : (
          <CustomSearchTab items={customItems} conditions={conditions} onChange={setConditions} />
        )}
      </DrawerBody>
      <DrawerFooter className={s.footer}>
        <Button onClick={() => { onReset(); onClose(); }} data-testid="search-reset">{t('search.reset')}</Button>
        <Button appearance="primary" data-testid="search-confirm" onClick={() => {
          onApply({ params: draft, filter: customToFilter(conditions) });
          onClose();
        }}>
          {t('common.confirm')}
        </Button>
      </DrawerFooter>
    </OverlayDrawer>
  );
}
