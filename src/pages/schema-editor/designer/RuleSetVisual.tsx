import { Card, CardHeader, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { patchOf } from '../../../core/designerDraft';
import { resolveLabel } from '../../../core/labels';
import { applyMergePatch } from '../../../core/mergePatch';
import type { RuleSet } from '../../../core/rules';
import { httpDataProvider } from '../../../engine/dataProvider';
import { loadSchema } from '../../../engine/schemaApi';
import type { RoleChoice } from './ActionsEditor';
import { RuleSetDesigner } from './RuleSetDesigner';
import { RuleTestPanel } from './RuleTestPanel';

const useStyles = makeStyles({
  columns: { display: 'grid', gridTemplateColumns: 'minmax(520px, 3fr) minmax(340px, 2fr)', gap: tokens.spacingHorizontalL, alignItems: 'start' },
  side: { padding: tokens.spacingHorizontalM, position: 'sticky', top: 0 },
});

interface Choices { roles: RoleChoice[]; labels: Record<string, string> }
/** Roles and the case's field labels, read once per language (every set's builder and test panel offer them). */
const cache = new Map<string, Promise<Choices>>();
function loadChoices(lang: string): Promise<Choices> {
  let hit = cache.get(lang);
  if (!hit) {
    hit = Promise.all([
      httpDataProvider.getList({ route: '/api/system_management/roles' }, { pagination: { current: 1, pageSize: 100 } }, { silent: true }).then((r) => r.data).catch(() => []),
      loadSchema('CaseList').then((p) => p.resource?.fields ?? {}).catch(() => ({})),
    ]).then(([roles, fields]) => ({
      roles: roles.map((r) => ({ identification: String(r.identification), name: String(r.name), en_name: r.en_name as string | null })),
      labels: Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, resolveLabel(f.label ?? name, lang)])),
    }));
    cache.set(lang, hit);
  }
  return hit;
}

/**
 * The rule sets' visual view: the set as the hospital would have it, drawn by the rule builder, beside the test
 * panel that runs the draft on a real case. Edits go back as the merge patch over the base set.
 */
export function RuleSetVisual({ base, others, override, onOverride }: { base: RuleSet; others: RuleSet[]; override: Record<string, unknown>; onOverride(o: Record<string, unknown>): void }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const merged = useMemo(() => applyMergePatch(base, override), [base, override]);
  const [choices, setChoices] = useState<Choices>({ roles: [], labels: {} });
  useEffect(() => {
    let live = true;
    void loadChoices(i18n.language).then((c) => { if (live) setChoices(c); });
    return () => { live = false; };
  }, [i18n.language]);
  return (
    <div className={s.columns}>
      <RuleSetDesigner set={merged} others={others} roles={choices.roles} fieldLabels={choices.labels} onChange={(next) => onOverride(patchOf(base, next))} />
      <Card className={s.side}>
        <CardHeader header={<b>{t('designer.testPanel')}</b>} />
        <RuleTestPanel set={merged} others={others} roles={choices.roles} />
      </Card>
    </div>
  );
}
