import { Button, Select, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContractExtension } from '../../../core/contract';
import { checkDraftProblems, withCheck, type CheckDraft } from '../../../core/designerDraft';
import { resolveLabel } from '../../../core/labels';
import type { FormRules } from '../../../core/pageSchema';
import { LabelInputs } from './LabelInputs';
import { RuleBuilder, type RuleField } from './RuleBuilder';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  check: {
    display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, padding: tokens.spacingHorizontalS,
    border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium,
  },
  row: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  small: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  problem: { color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200 },
});

type Check = NonNullable<FormRules['checks']>[number];

/**
 * The form's cross-field checks, without JSON: each names the field its message shows on, the condition the data
 * must meet (built in the rule builder, written as json-logic) and the message in both languages. The resource's
 * own checks are listed (they always hold); the hospital's are added, edited and removed here, in its contract
 * extension, so the browser's form and the server refuse the same input with the same message.
 */
export function ChecksEditor({ base, ext, onExt, fields }: { base: Check[]; ext: ContractExtension; onExt(ext: ContractExtension): void; fields: RuleField[] }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const checks = (ext.rules?.checks ?? []) as CheckDraft[];
  const problems = checkDraftProblems(ext);
  // A builder reads its rule once; removing a check remounts the ones after it (their index changed), not the rest.
  const ids = useRef<number[]>([]);
  const next = useRef(0);
  while (ids.current.length < checks.length) ids.current.push(next.current++);
  ids.current.length = checks.length;
  const set = (i: number, patch: Partial<CheckDraft>) => onExt(withCheck(ext, i, { ...checks[i], ...patch }));
  const remove = (i: number) => {
    ids.current.splice(i, 1);
    onExt(withCheck(ext, i, undefined));
  };
  const fieldLabel = (name: string) => fields.find((f) => f.name === name)?.label ?? name;

  return (
    <div className={s.root} data-testid="designer-checks">
      <b>{t('designer.checks')}</b>
      <span className={s.small}>{t('designer.checksHelp')}</span>
      {base.map((c, i) => (
        <span key={`base-${i}`} className={s.small} data-testid={`base-check-${i}`}>{t('designer.baseCheck', { field: fieldLabel(c.field), message: resolveLabel(c.message, i18n.language) })}</span>
      ))}
      {checks.length ? checks.map((c, i) => (
        <div key={ids.current[i]} className={s.check} data-testid={`check-${i}`}>
          <div className={s.row}>
            <span>{t('designer.checkField')}</span>
            <Select size="small" aria-label={t('designer.checkField')} value={c.field} onChange={(_, d) => set(i, { field: d.value })} data-testid={`check-field-${i}`}>
              {fields.map((f) => <option key={f.name} value={f.name}>{`${f.label} (${f.name})`}</option>)}
            </Select>
            <Button size="small" appearance="subtle" icon={<Delete20Regular />} onClick={() => remove(i)} data-testid={`check-remove-${i}`}>{t('designer.removeCheck')}</Button>
          </div>
          <span className={s.small}>{t('designer.checkHolds')}</span>
          <RuleBuilder fields={fields} value={c.rule} onChange={(rule) => set(i, { rule })} testId={`check-rule-${i}`} />
          <div className={s.row}>
            <span>{t('designer.checkMessage')}</span>
            <LabelInputs value={c.message} onChange={(message) => set(i, { message: message ?? { 'zh-CN': '', 'en-US': '' } })} testId={`check-message-${i}`} wide />
          </div>
          {problems.filter((p) => p.index === i).map((p) => <span key={p.problem} className={s.problem}>{t(`designer.checkProblem.${p.problem}`)}</span>)}
        </div>
      )) : <span className={s.small}>{t('designer.noChecks')}</span>}
      <div>
        <Button size="small" icon={<Add20Regular />} disabled={!fields.length} data-testid="check-add"
          onClick={() => onExt(withCheck(ext, checks.length, { field: fields[0].name, message: { 'zh-CN': '', 'en-US': '' } }))}>
          {t('designer.addCheck')}
        </Button>
      </div>
    </div>
  );
}
