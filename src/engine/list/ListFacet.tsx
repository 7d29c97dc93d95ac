import { Badge, makeStyles, Text, ToggleButton, tokens } from '@fluentui/react-components';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { badgeText } from '../../core/listParams';
import { facetChoices } from '../../core/listFacet';
import type { FacetSchema } from '../../core/pageSchema';
import { useSession } from '../../store/session';
import { useLabel } from '../../widgets/useLabel';
import { resourceUrl } from '../dataProvider';
import { useChoices, useEnums } from '../options';

const useStyles = makeStyles({
  row: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  label: { color: tokens.colorNeutralForeground3, marginInlineEnd: tokens.spacingHorizontalXS },
  count: { marginInlineStart: tokens.spacingHorizontalXS },
});

interface Counts { counts: Record<string, number>; total: number }

/**
 * The facet row of a list schema (`list.facet`): "all" and one toggle per value with its count from the schema's
 * counts url; choosing one filters the list by it (the parent keeps the choice in the address). Counts are asked
 * again whenever the list reloads (an action ran, the show-all-data switch moved); a failed count shows none.
 */
export function ListFacet({ facet, value, reload, onChange }: { facet: FacetSchema; value: string | null; reload: number; onChange(value: string | null): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  const options = useChoices(facet.options);
  const enums = useEnums();
  const showAllData = useSession((st) => st.showAllData);
  const [counts, setCounts] = useState<Counts | null>(null);
  useEffect(() => {
    if (!facet.counts) return;
    let live = true;
    unwrap<Counts>(api.get(resourceUrl(facet.counts), { silent: true })).then((c) => live && setCounts(c), () => live && setCounts(null));
    return () => { live = false; };
  }, [facet.counts, reload, showAllData]);
  const colours = useMemo(() => new Map((enums[facet.options] ?? []).map((o) => [String(o.value), o.color])), [enums, facet.options]);
  const choices = facetChoices(facet, options.map((o) => ({ value: o.value, label: o.label, color: colours.get(String(o.value)) })), counts?.counts ?? null);

  const count = (n: number | null | undefined, on: boolean) => (n === null || n === undefined ? null : (
    <Badge className={s.count} size="small" appearance={on ? 'filled' : 'tint'} color="brand" data-count={n}>{badgeText(n)}</Badge>
  ));
  return (
    <div className={s.row} role="group" aria-label={label(facet.label ?? t('table.facet'))} data-testid="list-facet">
      <Text className={s.label} size={200}>{label(facet.label ?? t('table.facet'))}</Text>
      <ToggleButton size="small" shape="circular" checked={value === null} data-facet="" onClick={() => onChange(null)}>
        {t('table.facetAll')}{count(counts?.total, value === null)}
      </ToggleButton>
      {choices.map((c) => (
        <ToggleButton key={c.value} size="small" shape="circular" checked={value === c.value} data-facet={c.value}
          onClick={() => onChange(value === c.value ? null : c.value)}>
          {c.label}{count(c.count, value === c.value)}
        </ToggleButton>
      ))}
    </div>
  );
}
