import { Badge, Tab, TabList } from '@fluentui/react-components';
import { badgeText } from '../../core/listParams';
import type { TabSchema } from '../../core/pageSchema';
import { useLabel } from '../../widgets/useLabel';

/** Tabs above the list with their counts (spec §2: the badge caps at 999+). */
export function ListTabs({ tabs, value, counts, onChange }: { tabs: TabSchema[]; value: string; counts: Record<string, number> | null; onChange(key: string): void }) {
  const { label } = useLabel();
  return (
    <TabList selectedValue={value} onTabSelect={(_, d) => onChange(String(d.value))} data-testid="list-tabs">
      {tabs.map((tab) => (
        <Tab key={tab.key} value={tab.key} data-tab={tab.key}>
          {label(tab.label)}
          {counts && counts[tab.key] !== undefined ? (
            <Badge size="small" appearance={tab.key === value ? 'filled' : 'tint'} color="brand" style={{ marginInlineStart: 6 }} data-count={counts[tab.key]}>
              {badgeText(counts[tab.key])}
            </Badge>
          ) : null}
        </Tab>
      ))}
    </TabList>
  );
}
