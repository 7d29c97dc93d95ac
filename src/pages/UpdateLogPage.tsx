import { Card, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  root: { maxWidth: '760px', margin: '0 auto', padding: tokens.spacingHorizontalXXL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  version: { fontWeight: tokens.fontWeightSemibold, fontSize: tokens.fontSizeBase500 },
  date: { color: tokens.colorNeutralForeground3 },
});

/** Release notes (spec §2: the user menu opens it in a new tab). Entries are translation resources. */
const RELEASES = [{ version: '0.1.0', date: '2026-11-22', items: ['release.010.login', 'release.010.menu', 'release.010.lock', 'release.010.i18n'] }];

export default function UpdateLogPage() {
  const s = useStyles();
  const { t } = useTranslation();
  useEffect(() => { document.title = `${t('user.updateLog')} - ${t('app.titleSuffix')}`; }, [t]);
  return (
    <div className={s.root}>
      <h1>{t('user.updateLog')}</h1>
      {RELEASES.map((r) => (
        <Card key={r.version}>
          <div><span className={s.version}>{r.version}</span> <span className={s.date}>{r.date}</span></div>
          <ul>{r.items.map((k) => <li key={k}>{t(k)}</li>)}</ul>
        </Card>
      ))}
    </div>
  );
}
