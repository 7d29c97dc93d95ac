import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import ruleMetaSchema from '../../../schemas/meta/rule.schema.json';
import { applyMergePatch } from '../../core/mergePatch';
import type { RuleSet } from '../../core/rules';
import { checkRuleSet } from '../../core/rulesCheck';
import { fetchRuleBase, fetchRuleVersions, forgetRules, loadRules, rollbackRuleSet, saveRuleOverride } from '../../engine/rulesApi';
import { useLabel } from '../../widgets/useLabel';
import { LayeredEditor, type LayeredKind } from './LayeredEditor';
import { RuleSetVisual } from './designer/RuleSetVisual';
import { useOverrideEditorStyles } from './overrideEditing';

/** An override is a merge patch over a rule set: the rule-set meta-schema, with nothing required (a patch names only what changes). */
const RULE_PATCH_SCHEMA = { ...ruleMetaSchema, required: [] };

/**
 * The rule-set half of the schema editor: pick a file of schemas/rules, edit this hospital's override in the
 * rule builder with a test panel on real cases (RuleSetVisual), or as JSON (a merge patch over the file), checked as typed (meta-schema, json-logic operations, what the set must
 * return), see the merged set, save it as a new version or roll back, like a page.
 */
export function RuleSetEditor() {
  const s = useOverrideEditorStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  const kind = useMemo<LayeredKind<{ set: RuleSet; others: RuleSet[] }>>(() => ({
    id: 'rule', nameLabel: t('schemaEditor.ruleSet'), validText: t('schemaEditor.ruleValid'), mergedTitle: t('schemaEditor.mergedRules'), metaSchema: RULE_PATCH_SCHEMA,
    names: async () => (await loadRules()).map((x) => x.alias),
    load: async (name) => {
      forgetRules();
      const [set, all, versions] = await Promise.all([fetchRuleBase(name), loadRules(), fetchRuleVersions(name)]);
      return { base: { set, others: all.map((x) => x.schema) }, current: all.find((x) => x.alias === name)?.version ?? 0, versions };
    },
    check: (override, base, name) => {
      const merged = applyMergePatch(base.set, override);
      const problems = checkRuleSet(merged, base.others);
      if (merged.name !== name) problems.push({ path: '/name', message: t('schemaEditor.ruleNameFixed', { name }) });
      return problems;
    },
    effective: (override, base) => applyMergePatch(base.set, override),
    preview: (override, base) => {
      const merged = applyMergePatch(base.set, override);
      return <><p>{label(merged.description)}</p><pre className={s.merged}>{JSON.stringify(merged.rules, null, 2)}</pre></>;
    },
    save: saveRuleOverride,
    rollback: rollbackRuleSet,
    visual: ({ override, base, onOverride }) => <RuleSetVisual base={base.set} others={base.others} override={override} onOverride={onOverride} />,
  }), [t, label, s.merged]);
  return <LayeredEditor kind={kind} />;
}
