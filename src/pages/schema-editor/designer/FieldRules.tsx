import { makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { JsonLogic } from '../../../core/pageSchema';
import { RuleBuilder, type RuleField } from './RuleBuilder';

const useStyles = makeStyles({
  root: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: tokens.spacingHorizontalM, width: '100%', padding: tokens.spacingVerticalS },
  title: { fontWeight: tokens.fontWeightSemibold, marginBottom: tokens.spacingVerticalXS },
});

/** A form field's two rules, each built in the rule builder: shown only when…, required only when… */
export function FieldRules({ field, fields, visibleIf, requiredIf, onChange }: {
  field: string; fields: RuleField[]; visibleIf?: JsonLogic; requiredIf?: JsonLogic;
  onChange(kind: 'visibleIf' | 'requiredIf', rule: JsonLogic | undefined): void;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const others = fields.filter((f) => f.name !== field);
  return (
    <div className={s.root}>
      <div>
        <div className={s.title}>{t('designer.visibleIf')}</div>
        <RuleBuilder fields={others} value={visibleIf} onChange={(r) => onChange('visibleIf', r)} testId={`rule-visibleIf-${field}`} />
      </div>
      <div>
        <div className={s.title}>{t('designer.requiredIf')}</div>
        <RuleBuilder fields={others} value={requiredIf} onChange={(r) => onChange('requiredIf', r)} testId={`rule-requiredIf-${field}`} />
      </div>
    </div>
  );
}
