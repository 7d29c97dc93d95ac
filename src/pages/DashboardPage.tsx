import { Badge, Card, CardHeader, Link, makeStyles, tokens } from '@fluentui/react-components';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isExternal, menuLabel, visibleMenu, type MenuEntry } from '../core/menuRules';
import { useSession } from '../store/session';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  greeting: { fontSize: tokens.fontSizeBase600, fontWeight: tokens.fontWeightSemibold, margin: 0 },
  roles: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: tokens.spacingHorizontalL },
  links: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, paddingInline: tokens.spacingHorizontalM, paddingBottom: tokens.spacingVerticalM },
});

/** The landing page: who you are, where you work, and every place your menu grants, one click away. */
export default function DashboardPage() {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { user, menus, hospitalId } = useSession();
  const groups = useMemo(() => visibleMenu(menus).filter((g) => g.children?.length), [menus]);
  const hospital = user?.hospitals.data.find((h) => h.id === hospitalId);
  const open = (e: MenuEntry) => (isExternal(e) ? window.open(e.uri, '_blank', 'noopener') : navigate(e.uri));

  return (
    <div className={s.root} data-testid="dashboard">
      <h2 className={s.greeting}>{t('dashboard.greeting', { name: user?.realname })}</h2>
      <div>{hospital ? t('dashboard.hospital', { hospital: i18n.language === 'en-US' ? hospital.en_name : hospital.name }) : null}</div>
      <div className={s.roles}>{user?.roles.map((r) => <Badge key={r.id} appearance="tint">{t(`role.${r.identification}`, { defaultValue: r.name })}</Badge>)}</div>
      <div className={s.grid}>
        {groups.map((g) => (
          <Card key={g.route_name}>
            <CardHeader header={<b>{menuLabel(g, i18n.language)}</b>} />
            <div className={s.links}>
              {g.children!.map((c) => <Link key={c.uri} onClick={() => open(c)}>{menuLabel(c, i18n.language)}</Link>)}
            </div>
          </Card>
        ))}
      </div>
    </div>
  );
}
