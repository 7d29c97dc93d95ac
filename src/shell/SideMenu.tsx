import {
  Menu, MenuItem, MenuList, MenuPopover, NavCategory, NavCategoryItem, NavDrawer, NavDrawerBody, NavDrawerHeader, NavItem,
  NavSubItem, NavSubItemGroup, Tooltip, makeStyles, tokens, type PositioningVirtualElement,
} from '@fluentui/react-components';
import { Open20Regular } from '@fluentui/react-icons';
import { memo, useMemo, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isExternal, menuLabel, visibleMenu, type MenuEntry } from '../core/menuRules';
import { useSession } from '../store/session';
import { MenuIcon } from './menuIcons';
import { ProductLogo } from './ProductLogo';

const useStyles = makeStyles({
  drawer: { height: '100%', borderRight: `1px solid ${tokens.colorNeutralStroke2}` },
  // A row, left-aligned: Fluent's drawer header is a centred column, which pushed a long name past both edges.
  header: {
    height: '48px', display: 'flex', flexDirection: 'row', alignItems: 'center', justifyContent: 'flex-start',
    gap: tokens.spacingHorizontalS, paddingInline: tokens.spacingHorizontalM, overflow: 'hidden',
  },
  // Spec §9: the side logo is 38 px high; a hospital's own logo keeps its proportions.
  logo: { height: '38px', maxWidth: '76px', objectFit: 'contain', flexShrink: 0 },
  // The name takes what is left and ends in an ellipsis; the full name is in the tooltip.
  product: {
    flex: '1 1 auto', minWidth: 0, fontWeight: tokens.fontWeightSemibold, color: tokens.colorBrandForeground1,
    whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis',
  },
});

/** Leaves under an entry; deeper levels are flattened because the side menu shows two levels. */
const leaves = (e: MenuEntry): MenuEntry[] => (e.children?.length ? e.children.flatMap(leaves) : [e]);
const routeOf = (uri: string) => uri.split('?')[0];

/**
 * The side menu. It takes the path and the way to go somewhere from the shell rather than reading the router itself,
 * and its entries are built once per menu and language: a list rewriting its query, or a navigation, then re-renders
 * only the selection, not fifty items (and not Fluent's DrawerBody layout effect, which measures the whole page each
 * time its children change).
 */
export const SideMenu = memo(function SideMenu({ open, pathname, go }: { open: boolean; pathname: string; go(uri: string): void }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const { menus, user } = useSession();
  const items = useMemo(() => visibleMenu(menus), [menus]);
  const [context, setContext] = useState<{ target: PositioningVirtualElement; entry: MenuEntry } | null>(null);

  const selected = leaves({ children: items } as MenuEntry).find((e) => routeOf(e.uri) === pathname)?.uri;
  const openCategories = items.filter((e) => e.children?.length && e.children.flatMap(leaves).some((c) => c.uri === selected)).map((e) => e.route_name);

  const body = useMemo(() => {
    const onClick = (e: MenuEntry) => (ev: MouseEvent) => {
      if (ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
      ev.preventDefault();
      if (isExternal(e)) window.open(e.uri, '_blank', 'noopener');
      else go(e.uri);
    };
    const onContext = (e: MenuEntry) => (ev: MouseEvent) => {
      ev.preventDefault();
      const { clientX: x, clientY: y } = ev;
      setContext({ entry: e, target: { getBoundingClientRect: () => ({ x, y, top: y, left: x, bottom: y, right: x, width: 0, height: 0 }) } as PositioningVirtualElement });
    };
    const link = (e: MenuEntry) => ({ href: e.uri, onClick: onClick(e), onContextMenu: onContext(e), 'data-alias': e.alias, ...(isExternal(e) ? { target: '_blank' } : {}) });
    return items.map((e) =>
      e.children?.length ? (
        <NavCategory key={e.route_name} value={e.route_name}>
          <NavCategoryItem icon={<MenuIcon name={e.icon ?? e.icon_path} />}>{menuLabel(e, i18n.language)}</NavCategoryItem>
          <NavSubItemGroup>
            {e.children.flatMap(leaves).map((c) => (
              <NavSubItem key={c.uri} value={c.uri} {...link(c)}>{menuLabel(c, i18n.language)}</NavSubItem>
            ))}
          </NavSubItemGroup>
        </NavCategory>
      ) : (
        <NavItem key={e.uri} value={e.uri} icon={<MenuIcon name={e.icon ?? e.icon_path} />} {...link(e)}>
          {menuLabel(e, i18n.language)}
        </NavItem>
      ),
    );
  }, [items, i18n.language, go]);

  return (
    <>
      <NavDrawer open={open} type="inline" className={s.drawer} selectedValue={selected} defaultOpenCategories={openCategories} data-testid="side-menu">
        <NavDrawerHeader className={s.header}>
          {user?.hospital_logo ? <img className={s.logo} src={user.hospital_logo} alt="" /> : <ProductLogo />}
          <Tooltip content={t('app.name')} relationship="label" positioning="below-start">
            <span className={s.product} data-testid="product-name">{t('app.name')}</span>
          </Tooltip>
        </NavDrawerHeader>
        <NavDrawerBody>
          {body}
        </NavDrawerBody>
      </NavDrawer>
      <Menu open={!!context} onOpenChange={(_, d) => !d.open && setContext(null)} positioning={{ target: context?.target, position: 'after', align: 'top' }}>
        <MenuPopover>
          <MenuList>
            <MenuItem icon={<Open20Regular />} onClick={() => context && window.open(context.entry.uri, '_blank', 'noopener')}>
              {t('menu.openInNewTab')}
            </MenuItem>
          </MenuList>
        </MenuPopover>
      </Menu>
    </>
  );
});
