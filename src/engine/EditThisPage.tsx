import { makeStyles, tokens } from '@fluentui/react-components';
import { Edit16Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { isGranted } from '../core/actions';
import { menuRoutes } from '../core/menuRules';
import { useSession } from '../store/session';
import { useGrants } from './useGrants';

const useStyles = makeStyles({
  root: { display: 'flex', justifyContent: 'flex-end', fontSize: tokens.fontSizeBase200, marginBottom: `calc(-1 * ${tokens.spacingVerticalS})` },
  link: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS, color: tokens.colorBrandForegroundLink, textDecorationLine: 'none', ':hover': { textDecorationLine: 'underline' } },
});

/** "Edit this page": for schema editors, opens the page designer on the page's schema. */
export function EditThisPage({ alias }: { alias: string }) {
  const s = useStyles();
  const { t } = useTranslation();
  const grants = useGrants();
  const menus = useSession((st) => st.menus);
  const designer = menuRoutes(menus).find((r) => r.alias === 'SchemaEditor');
  if (!designer || !isGranted('schema_edit', grants)) return null;
  return (
    <div className={s.root}>
      <RouterLink to={`/manage/${designer.path}?page=${encodeURIComponent(alias)}`} data-testid="edit-this-page" className={s.link}><Edit16Regular />{t('designer.editPage')}</RouterLink>
    </div>
  );
}
