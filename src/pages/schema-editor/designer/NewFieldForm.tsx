import { Button, Checkbox, Input, Select, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDef, FieldType } from '../../../core/contract';
import { FIELD_NAME } from '../../../core/designerDraft';
import type { InlineLabel, SearchOption } from '../../../core/pageSchema';
import { LabelInputs } from './LabelInputs';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: tokens.spacingHorizontalM, border: `1px dashed ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusMedium },
  line: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

const TYPES: FieldType[] = ['string', 'integer', 'number', 'boolean', 'date', 'datetime'];
type OptionsKind = 'none' | 'inline' | 'enum' | 'resource';
interface Draft { value: string; label?: InlineLabel }

/** The hospital's new form field (name, type, labels in both languages, options, required): kept in the record's `extra`, with the size limit every text of `extra` has. */
export function NewFieldForm({ taken, enumNames, resourceNames, onAdd }: { taken: string[]; enumNames: string[]; resourceNames: string[]; onAdd(name: string, def: FieldDef, required: boolean): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [type, setType] = useState<FieldType>('string');
  const [label, setLabel] = useState<InlineLabel | undefined>();
  const [kind, setKind] = useState<OptionsKind>('none');
  const [source, setSource] = useState('');
  const [options, setOptions] = useState<Draft[]>([]);
  const [required, setRequired] = useState(false);

  const problem = !name ? '' : !FIELD_NAME.test(name) ? t('designer.badName') : taken.includes(name) ? t('designer.nameTaken') : '';
  const inlineOk = options.length > 0 && options.every((o) => o.value && o.label?.['zh-CN'] && o.label?.['en-US']) && new Set(options.map((o) => o.value)).size === options.length;
  const ready = name && !problem && label?.['zh-CN'] && label?.['en-US'] && (kind === 'none' || (kind === 'inline' ? inlineOk : !!source));

  const add = () => {
    const def: FieldDef = { type, label };
    if (type === 'string') def.maxLength = 200;
    if (kind === 'inline') def.options = options.map((o) => ({ value: o.value, label: o.label! }) as SearchOption);
    if (kind === 'enum') def.options = source;
    if (kind === 'resource') def.options = `resource:${source}`;
    onAdd(name, def, required);
    setName(''); setLabel(undefined); setKind('none'); setOptions([]); setSource(''); setRequired(false);
  };

  return (
    <div className={s.root} data-testid="new-field">
      <b>{t('designer.newField')}</b>
      <div className={s.line}>
        <Input size="small" value={name} placeholder={t('designer.fieldName')} aria-label={t('designer.fieldName')} onChange={(_, d) => setName(d.value.trim())} data-testid="new-field-name" />
        <Select size="small" value={type} aria-label={t('designer.type')} onChange={(_, d) => setType(d.value as FieldType)} data-testid="new-field-type">
          {TYPES.map((ty) => <option key={ty} value={ty}>{t(`designer.types.${ty}`)}</option>)}
        </Select>
        <LabelInputs value={label} onChange={setLabel} testId="new-field-label" />
        <Checkbox label={t('designer.required')} checked={required} onChange={(_, d) => setRequired(!!d.checked)} data-testid="new-field-required" />
        {problem ? <span className={s.error}>{problem}</span> : null}
      </div>
      <div className={s.line}>
        <span>{t('designer.options')}</span>
        <Select size="small" value={kind} aria-label={t('designer.options')} onChange={(_, d) => setKind(d.value as OptionsKind)} data-testid="new-field-options">
          {(['none', 'inline', 'enum', 'resource'] as const).map((k) => <option key={k} value={k}>{t(`designer.optionsKind.${k}`)}</option>)}
        </Select>
        {kind === 'enum' || kind === 'resource' ? (
          <Select size="small" value={source} aria-label={t('designer.options')} onChange={(_, d) => setSource(d.value)}>
            <option value="">{t('designer.pick')}</option>
            {(kind === 'enum' ? enumNames : resourceNames).map((n) => <option key={n} value={n}>{n}</option>)}
          </Select>
        ) : null}
        {kind === 'inline' ? <Button size="small" icon={<Add20Regular />} onClick={() => setOptions([...options, { value: '' }])} data-testid="new-field-add-option">{t('designer.addOption')}</Button> : null}
      </div>
      {kind === 'inline' ? options.map((o, i) => (
        <div className={s.line} key={i} data-testid={`new-field-option-${i}`}>
          <Input size="small" value={o.value} placeholder={t('designer.optionValue')} aria-label={t('designer.optionValue')} style={{ width: 120 }}
            onChange={(_, d) => setOptions(options.map((x, j) => (j === i ? { ...x, value: d.value.trim() } : x)))} data-testid={`new-field-option-${i}-value`} />
          <LabelInputs value={o.label} onChange={(l) => setOptions(options.map((x, j) => (j === i ? { ...x, label: l } : x)))} testId={`new-field-option-${i}-label`} />
          <Button size="small" appearance="subtle" icon={<Delete20Regular />} aria-label={t('designer.remove')} onClick={() => setOptions(options.filter((_, j) => j !== i))} />
        </div>
      )) : null}
      <div><Button size="small" appearance="primary" icon={<Add20Regular />} disabled={!ready} onClick={add} data-testid="new-field-add">{t('designer.addField')}</Button></div>
    </div>
  );
}
