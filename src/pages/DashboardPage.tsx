import { Badge, Spinner, makeStyles, mergeClasses, shorthands, tokens } from '@fluentui/react-components';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api, unwrap } from '../api/client';
import { visibleMenu, type MenuEntry } from '../core/menuRules';
import { useSession } from '../store/session';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  greeting: { fontSize: tokens.fontSizeBase600, fontWeight: tokens.fontWeightSemibold, margin: 0 },
  roles: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: tokens.spacingHorizontalL },
  // Tiles are styled boxes rather than Fluent Cards: the dashboard is the first page after login and counts
  // towards the shell's download budget, which Card and Link would push over.
  tile: {
    display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: tokens.spacingVerticalM,
    backgroundColor: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusMedium, boxShadow: tokens.shadow4,
  },
  link: {
    cursor: 'pointer', ':hover': { boxShadow: tokens.shadow8 },
    ':focus-visible': { ...shorthands.outline(tokens.strokeWidthThick, 'solid', tokens.colorStrokeFocus2) },
  },
  head: { display: 'flex', justifyContent: 'space-between', gap: tokens.spacingHorizontalS, fontWeight: tokens.fontWeightSemibold },
  open: { color: tokens.colorBrandForegroundLink, fontWeight: tokens.fontWeightRegular, whiteSpace: 'nowrap' },
  numbers: { display: 'flex', flexWrap: 'wrap', gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalXL}` },
  number: { display: 'flex', flexDirection: 'column', minWidth: '72px' },
  value: { fontSize: tokens.fontSizeHero700, fontWeight: tokens.fontWeightSemibold, lineHeight: tokens.lineHeightHero700 },
  caption: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  warn: { color: tokens.colorPaletteDarkOrangeForeground1 },
  danger: { color: tokens.colorPaletteRedForeground1 },
  empty: { color: tokens.colorNeutralForeground3 },
});

interface Tiles {
  today?: { day: string; phases: Record<string, number> };
  mine?: { to_diagnose: number; to_allocate: number; registered_open: number };
  timeouts?: { soon: number; over: number; hours: number; within: number };
  scanners?: Record<string, number>;
  uploads?: { queued: number; running: number; not_bound: number };
}

/** Every menu entry by alias, for the tiles' links (only the lists the user's menu grants). */
function byAlias(menus: MenuEntry[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (list: MenuEntry[]) => list.forEach((m) => { if (m.alias) out.set(m.alias, m.uri); walk(m.children ?? []); });
  walk(visibleMenu(menus));
  return out;
}

/**
 * The landing page (issue 16): today's cases by phase, my work lists, cases about to time out, the scanner fleet
 * and the upload queue, each tile leading to its list. The server sends only the tiles the user may see.
 */
export default function DashboardPage() {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { user, menus, hospitalId } = useSession();
  const links = useMemo(() => byAlias(menus), [menus]);
  const [tiles, setTiles] = useState<Tiles | null>(null);
  // The words of phases and scanner states come from the enums (GET /api/enums), read here directly: the engine's
  // option cache would bring its code into the first page's download (the shell budget).
  const [enums, setEnums] = useState<Record<string, { value: unknown; label: unknown }[]>>({});
  const hospital = user?.hospitals.data.find((h) => h.id === hospitalId);

  useEffect(() => {
    let live = true;
    unwrap<Tiles>(api.get('/statistic/dashboard', { params: { utc_offset: -new Date().getTimezoneOffset() } }))
      .then((d) => live && setTiles(d)).catch(() => live && setTiles({}));
    return () => { live = false; };
  }, [hospitalId]);
  useEffect(() => {
    let live = true;
    unwrap<Record<string, { value: unknown; label: unknown }[]>>(api.get('/enums')).then((e) => live && setEnums(e)).catch(() => undefined);
    return () => { live = false; };
  }, []);

  const enumLabel = (name: string, value: string) => {
    const o = enums[name]?.find((x) => String(x.value) === value)?.label;
    if (o && typeof o === 'object') return (o as Record<string, string>)[i18n.language] ?? (o as Record<string, string>)['zh-CN'] ?? value;
    return typeof o === 'string' ? o : value;
  };
  const open = (alias: string) => { const uri = links.get(alias); if (uri) navigate(uri); };
  const num = (key: string, value: number, caption: string, tone?: 'warn' | 'danger') => (
    <div key={key} className={s.number} data-testid={`tile-${key}`}>
      <span className={`${s.value} ${tone && value > 0 ? s[tone] : ''}`}>{value}</span>
      <span className={s.caption}>{caption}</span>
    </div>
  );
  const tile = (id: string, title: string, alias: string, body: React.ReactNode) => {
    const linked = links.has(alias);
    return (
      <div key={id} className={mergeClasses(s.tile, linked && s.link)} data-testid={`dashboard-${id}`}
        {...(linked ? { role: 'link', tabIndex: 0, onClick: () => open(alias), onKeyDown: (e: React.KeyboardEvent) => { if (e.key === 'Enter') open(alias); } } : {})}>
        <div className={s.head}><span>{title}</span>{linked ? <span className={s.open}>{t('dashboard.open')}</span> : null}</div>
        {body}
      </div>
    );
  };
  const numbers = (entries: [string, number, string, ('warn' | 'danger')?][]) =>
    entries.length ? <div className={s.numbers}>{entries.map(([k, v, c, tone]) => num(k, v, c, tone))}</div> : <div className={s.empty}>{t('dashboard.none')}</div>;

  return (
    <div className={s.root} data-testid="dashboard">
      <h2 className={s.greeting}>{t('dashboard.greeting', { name: user?.realname })}</h2>
      <div>{hospital ? t('dashboard.hospital', { hospital: i18n.language === 'en-US' ? hospital.en_name : hospital.name }) : null}</div>
      <div className={s.roles}>{user?.roles.map((r) => <Badge key={r.id} appearance="tint">{t(`role.${r.identification}`, { defaultValue: r.name })}</Badge>)}</div>
      {!tiles ? <Spinner /> : (
        <div className={s.grid}>
          {tiles.today ? tile('today', t('dashboard.today', { day: tiles.today.day }), 'CaseList',
            numbers(Object.entries(tiles.today.phases).map(([p, n]) => [`phase-${p}`, n, enumLabel('case_phase', p)]))) : null}
          {tiles.mine ? tile('mine', t('dashboard.mine'), 'DiagnosisList', numbers([
            ['to_diagnose', tiles.mine.to_diagnose, t('dashboard.toDiagnose')],
            ['to_allocate', tiles.mine.to_allocate, t('dashboard.toAllocate')],
            ['registered_open', tiles.mine.registered_open, t('dashboard.registeredOpen')],
          ])) : null}
          {tiles.timeouts ? tile('timeouts', t('dashboard.timeouts', { hours: tiles.timeouts.hours }), 'MissCaseSearch', numbers([
            ['timeout_soon', tiles.timeouts.soon, t('dashboard.timeoutSoon', { hours: tiles.timeouts.within }), 'warn'],
            ['timeout_over', tiles.timeouts.over, t('dashboard.timeoutOver'), 'danger'],
          ])) : null}
          {tiles.scanners ? tile('scanners', t('dashboard.scanners'), 'ScannerList',
            numbers(Object.entries(tiles.scanners).map(([st, n]) => [`scanner-${st}`, n, enumLabel('scanner_status', st), st === 'error' ? 'danger' : undefined]))) : null}
          {tiles.uploads ? tile('uploads', t('dashboard.uploads'), 'DssUploaded', numbers([
            ['queued', tiles.uploads.queued, t('dashboard.queued')],
            ['running', tiles.uploads.running, t('dashboard.running')],
            ['not_bound', tiles.uploads.not_bound, t('dashboard.notBound'), 'warn'],
          ])) : null}
        </div>
      )}
    </div>
  );
}
