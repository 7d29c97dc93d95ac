import { Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  root: {
    position: 'fixed', inset: 0, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center',
    gap: tokens.spacingVerticalL, backgroundColor: tokens.colorNeutralBackground2, zIndex: 3000,
  },
  title: { fontSize: tokens.fontSizeHero700, fontWeight: tokens.fontWeightSemibold, color: tokens.colorBrandForeground1 },
});

/** Full-screen splash while the app starts (spec §2, §4). */
export function Splash() {
  const s = useStyles();
  const { t, ready } = useTranslation();
  return (
    <div className={s.root} data-testid="splash" role="status">
      <div className={s.title}>{ready ? t('app.name') : null}</div>
      <Spinner size="large" label={ready ? t('app.loading') : undefined} />
    </div>
  );
}
