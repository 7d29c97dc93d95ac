import { Button, Card, Checkbox, Input, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDown20Regular, ArrowUp20Regular, ArrowUndo20Regular, Save20Regular } from '@fluentui/react-icons';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, displayText, unwrap } from '../../../api/client';
import { notify } from '../../../api/notify';
import { move } from '../../../core/designerDraft';
import { applyMenuOverride, MENU_NAME_MAX, type MenuEntryOverride } from '../../../core/menuOverride';
import type { MenuEntry } from '../../../core/menuRules';
import { serverProblems } from '../overrideEditing';
import { SortableList } from './SortableList';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  name: { width: '190px', display: 'flex', flexDirection: 'column' },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase100, color: tokens.colorNeutralForeground3 },
  children: { width: '100%', paddingInlineStart: '28px' },
  hidden: { color: tokens.colorNeutralForeground3, textDecorationLine: 'line-through' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

type Entries = Record<string, MenuEntryOverride>;
interface Loaded { version: number; override: { entries?: Entries }; tree: MenuEntry[] }

/** An entry's override without the parts that say nothing (an emptied name, not hidden); none when nothing is left. */
function tidyEntry(o: MenuEntryOverride): MenuEntryOverride | undefined {
  const out: MenuEntryOverride = {};
  if (o.name?.trim()) out.name = o.name.trim();
  if (o.en_name?.trim()) out.en_name = o.en_name.trim();
  if (o.hidden) out.hidden = true;
  if (o.rank !== undefined) out.rank = o.rank;
  return Object.keys(out).length ? out : undefined;
}

/**
 * The working hospital's menu: each entry renamed in both languages, hidden (its page stays reachable), or moved
 * among its siblings (dragged, or with the arrows). Saved with a note as a new version of the hospital's `menus`
 * document in the layered store (the server checks it); the base is the menu as released and edited in SystemMenu.
 */
export function MenuDesigner() {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [entries, setEntries] = useState<Entries>({});
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<{ path: string; message: string }[]>([]);

  const load = useCallback(async () => {
    setBusy(true);
    try {
      const l = await unwrap<Loaded>(api.get('/menu-config/menus'));
      setLoaded(l);
      setEntries((l.override.entries ?? {}) as Entries);
      setNote('');
    } catch (e) {
      setProblems([{ path: '', message: displayText(e, t('engine.loadFailed')) }]);
    } finally {
      setBusy(false);
    }
  }, [t]);
  useEffect(() => { void load(); }, [load]);

  const base = useMemo(() => {
    const map = new Map<string, MenuEntry>();
    const walk = (list: MenuEntry[]) => list.forEach((m) => { map.set(m.route_name, m); walk(m.children ?? []); });
    walk(loaded?.tree ?? []);
    return map;
  }, [loaded]);
  // The entries in the order the draft gives them; their names stay the base's (the inputs hold the new ones).
  const ordered = useMemo(() => applyMenuOverride(loaded?.tree ?? [], { entries: Object.fromEntries(Object.entries(entries).map(([k, o]) => [k, { rank: o.rank }])) }), [loaded, entries]);
  const tidied = useMemo(() => Object.fromEntries(Object.entries(entries).flatMap(([k, o]) => { const x = tidyEntry(o); return x ? [[k, x]] : []; })), [entries]);
  const dirty = !!loaded && JSON.stringify(tidied) !== JSON.stringify(Object.fromEntries(Object.entries(loaded.override.entries ?? {}).flatMap(([k, o]) => { const x = tidyEntry(o); return x ? [[k, x]] : []; })));

  const set = (key: string, part: MenuEntryOverride) => setEntries((all) => ({ ...all, [key]: { ...all[key], ...part } }));
  // A move gives every sibling its position, so the group keeps the order it was shown in.
  const reorder = (siblings: MenuEntry[], from: number, to: number) => {
    if (to < 0 || to >= siblings.length) return;
    const next = move(siblings, from, to);
    setEntries((all) => ({ ...all, ...Object.fromEntries(next.map((m, i) => [m.route_name, { ...all[m.route_name], rank: i }])) }));
  };
  const nameOf = (m: MenuEntry) => {
    const o = entries[m.route_name];
    return (i18n.language === 'en-US' ? o?.en_name?.trim() || base.get(m.route_name)?.en_name : o?.name?.trim() || base.get(m.route_name)?.name) ?? m.route_name;
  };
  const tooLong = Object.values(entries).some((o) => (o.name?.length ?? 0) > MENU_NAME_MAX || (o.en_name?.length ?? 0) > MENU_NAME_MAX);

  const save = async (override: { entries: Entries }, message: string) => {
    setBusy(true);
    setProblems([]);
    try {
      await unwrap(api.put('/menu-config/menus', { override, note: message }, { silent: true }));
      notify(t('designer.menuSaved'));
      await load();
    } catch (e) {
      const res = (e as { response?: { status?: number; data?: { errors?: unknown } } }).response;
      setProblems(res?.status === 422 ? serverProblems(res.data?.errors) : [{ path: '', message: displayText(e, t('engine.loadFailed')) }]);
    } finally {
      setBusy(false);
    }
  };

  const list = (siblings: MenuEntry[], depth: number) => (
    <SortableList items={siblings} idOf={(m) => m.route_name} labelOf={nameOf} onMove={(from, to) => reorder(siblings, from, to)}
      render={(m, i) => {
        const o = entries[m.route_name] ?? {};
        const b = base.get(m.route_name);
        return (
          <>
            <div className={s.name}>
              <span className={o.hidden ? s.hidden : undefined}>{nameOf(m)}</span>
              <span className={s.code}>{m.route_name}</span>
            </div>
            <Input size="small" value={o.name ?? ''} placeholder={b?.name} aria-label={t('designer.label_zh-CN')} maxLength={MENU_NAME_MAX} style={{ width: 150 }}
              onChange={(_, d) => set(m.route_name, { name: d.value })} data-testid={`menu-name-${m.route_name}-zh-CN`} />
            <Input size="small" value={o.en_name ?? ''} placeholder={b?.en_name} aria-label={t('designer.label_en-US')} maxLength={MENU_NAME_MAX} style={{ width: 170 }}
              onChange={(_, d) => set(m.route_name, { en_name: d.value })} data-testid={`menu-name-${m.route_name}-en-US`} />
            <Checkbox label={t('designer.menuHidden')} checked={!!o.hidden} onChange={(_, d) => set(m.route_name, { hidden: !!d.checked })} data-testid={`menu-hidden-${m.route_name}`} />
            <Button size="small" appearance="subtle" icon={<ArrowUp20Regular />} disabled={i === 0} aria-label={t('designer.moveUp', { name: nameOf(m) })} title={t('designer.moveUp', { name: nameOf(m) })}
              onClick={() => reorder(siblings, i, i - 1)} data-testid={`menu-up-${m.route_name}`} />
            <Button size="small" appearance="subtle" icon={<ArrowDown20Regular />} disabled={i === siblings.length - 1} aria-label={t('designer.moveDown', { name: nameOf(m) })} title={t('designer.moveDown', { name: nameOf(m) })}
              onClick={() => reorder(siblings, i, i + 1)} data-testid={`menu-down-${m.route_name}`} />
            {m.children?.length && depth < 3 ? <div className={s.children} data-testid={`menu-children-${m.route_name}`}>{list(m.children, depth + 1)}</div> : null}
          </>
        );
      }} />
  );

  if (!loaded) return <Spinner />;
  return (
    <div className={s.root} data-testid="menu-designer">
      <div className={s.bar}>
        <Input value={note} onChange={(_, d) => setNote(d.value.slice(0, 500))} placeholder={t('designer.notePlaceholder')} aria-label={t('designer.note')} style={{ minWidth: 260 }} data-testid="menu-note" />
        <Button appearance="primary" icon={<Save20Regular />} disabled={busy || !dirty || !note.trim() || tooLong} onClick={() => void save({ entries: tidied }, note.trim())} data-testid="menu-save">{t('schemaEditor.save')}</Button>
        <Button icon={<ArrowUndo20Regular />} disabled={busy || !Object.keys(loaded.override.entries ?? {}).length} onClick={() => void save({ entries: {} }, t('designer.menuResetNote'))} data-testid="menu-reset">{t('designer.menuReset')}</Button>
        {dirty && !note.trim() ? <span>{t('designer.noteRequired')}</span> : null}
        <span>{t('designer.menuVersion', { version: loaded.version })}</span>
        {busy ? <Spinner size="tiny" /> : null}
      </div>
      <span>{t('designer.menuHelp')}</span>
      {problems.length ? <ul className={s.error} data-testid="menu-problems">{problems.map((p, i) => <li key={i}><b>{p.path}</b> {p.message}</li>)}</ul> : null}
      <Card>{list(ordered, 0)}</Card>
    </div>
  );
}
