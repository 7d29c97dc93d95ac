import {
  Menu, MenuItem, MenuList, MenuPopover, NavCategory, NavCategoryItem, NavDrawer, NavDrawerBody, NavDrawerHeader, NavItem,
  NavSubItem, NavSubItemGroup, makeStyles, tokens, type PositioningVirtualElement,
} from '@fluentui/react-components';
import { Open20Regular } from '@fluentui/react-icons';
import { useMemo, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { isExternal, menuLabel, visibleMenu, type MenuEntry } from '../core/menuRules';
import { useSession } from '../store/session';
import { MenuIcon } from './menuIcons';

const useStyles = makeStyles({
  drawer: { height: '100%', borderRight: `1px solid ${tokens.colorNeutralStroke2}` },
  header: { height: '38px', display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, paddingInline: tokens.spacingHorizontalM },
  logo: { height: '28px', maxWidth: '40px', objectFit: 'contain' },
  // A narrow drawer (1440 px and below) must not push the name past its edges: it ends in an ellipsis.
  product: { fontWeight: tokens.fontWeightSemibold, color: tokens.colorBrandForeground1, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0 },
});

/** Leaves under an entry; deeper levels are flattened because the side menu shows two levels. */
const leaves = (e: MenuEntry): MenuEntry[] => (e.children?.length ? e.children.flatMap(leaves) : [e]);
const routeOf = (uri: string) => uri.split('?')[0];

export function SideMenu({ open }: { open: boolean }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { menus, user } = useSession();
  const items = useMemo(() => visibleMenu(menus), [menus]);
  const [context, setContext] = useState<{ target: PositioningVirtualElement; entry: MenuEntry } | null>(null);

  const selected = leaves({ children: items } as MenuEntry).find((e) => routeOf(e.uri) === location.pathname)?.uri;
  const openCategories = items.filter((e) => e.children?.length && e.children.flatMap(leaves).some((c) => c.uri === selected)).map((e) => e.route_name);

  const go = (e: MenuEntry) => (ev: MouseEvent) => {
    if (ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    ev.preventDefault();
    if (isExternal(e)) window.open(e.uri, '_blank', 'noopener');
    else navigate(e.uri);
  };
  const onContext = (e: MenuEntry) => (ev: MouseEvent) => {
    ev.preventDefault();
    const { clientX: x, clientY: y } = ev;
    setContext({ entry: e, target: { getBoundingClientRect: () => ({ x, y, top: y, left: x, bottom: y, right: x, width: 0, height: 0 }) } as PositioningVirtualElement });
  };
  const link = (e: MenuEntry) => ({ href: e.uri, onClick: go(e), onContextMenu: onContext(e), 'data-alias': e.alias, ...(isExternal(e) ? { target: '_blank' } : {}) });

  return (
    <>
      <NavDrawer open={open} type="inline" className={s.drawer} selectedValue={selected} defaultOpenCategories={openCategories} data-testid="side-menu">
        <NavDrawerHeader className={s.header}>
          {user?.hospital_logo ? <img className={s.logo} src={user.hospital_logo} alt="" /> : null}
          <span className={s.product} title={t('app.name')}>{t('app.name')}</span>
        </NavDrawerHeader>
        <NavDrawerBody>
          {items.map((e) =>
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
          )}
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
}
