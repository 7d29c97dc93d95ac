import {
  Button, Card, CardHeader, Dropdown, MessageBar, MessageBarBody, MessageBarTitle, Option, Spinner, Textarea,
} from '@fluentui/react-components';
import { Save20Regular, TextGrammarWand20Regular } from '@fluentui/react-icons';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayText } from '../../api/client';
import { notify } from '../../api/notify';
import { applyMergePatch } from '../../core/mergePatch';
import type { RuleProblem, RuleSet } from '../../core/rules';
import { checkRuleSet } from '../../core/rulesCheck';
import { fetchRuleBase, fetchRuleVersions, forgetRules, loadRules, rollbackRuleSet, saveRuleOverride, type LayeredRuleSet } from '../../engine/rulesApi';
import type { SchemaVersion } from '../../engine/schemaApi';
import { useLabel } from '../../widgets/useLabel';
import { useConfirm } from '../../widgets/dialogs/ConfirmDialog';
import { parseOverride, serverProblems, useOverrideEditorStyles } from './overrideEditing';
import { VersionList } from './VersionList';

/**
 * The rule-set half of the schema editor: pick a file of schemas/rules, edit this hospital's override
 * (a JSON merge patch over it) checked as typed (meta-schema, json-logic operations, what the set must
 * return), see the merged set, save it as a new version or roll back, like a page.
 */
export function RuleSetEditor() {
  const s = useOverrideEditorStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  const [confirmDialog, confirm] = useConfirm();
  const [sets, setSets] = useState<LayeredRuleSet[]>([]);
  const [name, setName] = useState('');
  const [base, setBase] = useState<RuleSet | null>(null);
  const [current, setCurrent] = useState(0);
  const [versions, setVersions] = useState<SchemaVersion[]>([]);
  const [text, setText] = useState('{}');
  const [saved, setSaved] = useState('{}');
  const [serverErrors, setServerErrors] = useState<RuleProblem[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const load = useCallback(async (set: string) => {
    setBusy(true);
    setServerErrors([]);
    try {
      forgetRules();
      const [b, all, v] = await Promise.all([fetchRuleBase(set), loadRules(), fetchRuleVersions(set)]);
      setSets(all);
      setName((n) => n || set);
      setBase(b);
      const version = all.find((x) => x.alias === set)?.version ?? 0;
      setCurrent(version);
      setVersions(v);
      const body = JSON.stringify(v.find((x) => x.version === version)?.override ?? {}, null, 2);
      setText(body);
      setSaved(body);
    } catch (e) {
      setError(displayText(e, t('engine.loadFailed')));
    } finally {
      setBusy(false);
    }
  }, [t]);

  useEffect(() => {
    loadRules().then((all) => {
      setSets(all);
      setName((n) => n || all[0]?.alias || '');
    }).catch((e) => setError(displayText(e, t('engine.loadFailed'))));
  }, [t]);
  useEffect(() => { if (name) void load(name); }, [name, load]);

  const parsed = useMemo(() => parseOverride(text, t('schemaEditor.notObject')), [text, t]);
  const merged = useMemo(() => (base && parsed.override ? applyMergePatch(base, parsed.override) : null), [base, parsed.override]);
  const problems = useMemo<RuleProblem[]>(() => {
    if (parsed.problem) return [{ path: 'JSON', message: parsed.problem }];
    if (!merged) return [];
    const list = checkRuleSet(merged, sets.map((x) => x.schema));
    if (merged.name !== name) list.push({ path: '/name', message: t('schemaEditor.ruleNameFixed', { name }) });
    return list;
  }, [parsed.problem, merged, name, sets, t]);

  const save = async () => {
    if (!parsed.override || problems.length) return;
    setBusy(true);
    setServerErrors([]);
    try {
      const res = await saveRuleOverride(name, parsed.override);
      notify(t('schemaEditor.saved', { version: res.version }));
      await load(name);
    } catch (e) {
      const res = (e as { response?: { status?: number; data?: { errors?: unknown } } }).response;
      if (res?.status === 422) setServerErrors(serverProblems(res.data?.errors));
      else setError(displayText(e, t('engine.loadFailed')));
    } finally {
      setBusy(false);
    }
  };
  const rollback = async (version: number) => {
    if (!(await confirm({ title: t('schemaEditor.rollback'), message: t('schemaEditor.confirmRollback', { version }) }))) return;
    setBusy(true);
    try {
      const res = await rollbackRuleSet(name, version);
      notify(t('schemaEditor.rolledBack', { version, current: res.version }));
      await load(name);
    } catch { /* the client showed the failure */ } finally {
      setBusy(false);
    }
  };

  const dirty = text !== saved;
  const allProblems = [...problems, ...serverErrors];
  return (
    <div className={s.root} data-testid="rule-editor">
      <div className={s.bar}>
        <Dropdown aria-label={t('schemaEditor.ruleSet')} placeholder={t('schemaEditor.ruleSet')} value={name} selectedOptions={name ? [name] : []}
          onOptionSelect={async (_, d) => {
            if (!d.optionValue || d.optionValue === name) return;
            if (dirty && !(await confirm({ title: t('schemaEditor.discardTitle'), message: t('schemaEditor.discard') }))) return;
            setName(d.optionValue);
          }}>
          {sets.map((x) => <Option key={x.alias} value={x.alias}>{x.alias}</Option>)}
        </Dropdown>
        <Button icon={<TextGrammarWand20Regular />} disabled={!parsed.override} onClick={() => setText(JSON.stringify(parsed.override, null, 2))}>{t('schemaEditor.format')}</Button>
        <Button appearance="primary" icon={<Save20Regular />} disabled={busy || !dirty || problems.length > 0} onClick={save} data-testid="rule-save">{t('schemaEditor.save')}</Button>
        <span>{t('schemaEditor.current', { version: current })}</span>
        {busy ? <Spinner size="tiny" /> : null}
      </div>
      {error ? <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar> : null}
      <div className={s.columns}>
        <div className={s.editor}>
          <Textarea className={s.code} textarea={{ className: s.code, spellCheck: false }} value={text} resize="vertical"
            aria-label={t('schemaEditor.override')} onChange={(_, d) => { setText(d.value); setServerErrors([]); }} data-testid="rule-override" />
          {allProblems.length ? (
            <MessageBar intent="error" layout="multiline" data-testid="rule-problems">
              <MessageBarBody>
                <MessageBarTitle>{t('schemaEditor.problems', { count: allProblems.length })}</MessageBarTitle>
                <ul className={s.problems}>{allProblems.map((p, i) => <li key={i}><b>{p.path}</b> {p.message}</li>)}</ul>
              </MessageBarBody>
            </MessageBar>
          ) : <MessageBar intent="success"><MessageBarBody>{t('schemaEditor.ruleValid')}</MessageBarBody></MessageBar>}
          <Card>
            <CardHeader header={<b>{t('schemaEditor.versions')}</b>} />
            <VersionList versions={versions} current={current} onRollback={rollback} onLoad={(v) => setText(JSON.stringify(v.override ?? {}, null, 2))} />
          </Card>
        </div>
        <Card className={s.preview}>
          <CardHeader header={<b>{t('schemaEditor.mergedRules')}</b>} description={merged ? label(merged.description) : undefined} />
          {merged && !problems.length
            ? <pre className={s.merged} data-testid="rule-merged">{JSON.stringify(merged.rules, null, 2)}</pre>
            : <span>{t('schemaEditor.noPreview')}</span>}
        </Card>
      </div>
      {confirmDialog}
    </div>
  );
}
