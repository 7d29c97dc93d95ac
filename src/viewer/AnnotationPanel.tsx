import { Button, Field, Input, makeStyles, Text, Textarea, tokens } from '@fluentui/react-components';
import { ArrowExportUp20Regular, ArrowImport20Regular, ChevronLeft20Regular, ChevronRight20Regular, Delete20Regular } from '@fluentui/react-icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatArea, formatLength, largeEnough } from '../core/annotationGeometry';
import { fromGeoJson, toGeoJson } from '../core/annotationGeoJson';
import type { Annotation, AnnotationChange, ShapeBody } from './api';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '8px', minHeight: 0, flex: 1 },
  row: { display: 'flex', gap: '4px', alignItems: 'center', flexWrap: 'wrap' },
  list: { overflowY: 'auto', flex: 1, minHeight: '120px', border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium },
  item: {
    display: 'flex', gap: '8px', alignItems: 'center', padding: '4px 8px', cursor: 'pointer', borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  selected: { backgroundColor: tokens.colorBrandBackground2 },
  dot: { width: '10px', height: '10px', borderRadius: '50%', flexShrink: 0 },
  grow: { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  meta: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  form: { display: 'flex', flexDirection: 'column', gap: '6px', paddingTop: '4px', borderTop: `1px solid ${tokens.colorNeutralStroke2}` },
});

interface Props {
  items: Annotation[];
  selectedId: number | null;
  readOnly: boolean;
  slideName: string;
  editable(a: Annotation): boolean;
  onSelect(a: Annotation): void;
  onChange(a: Annotation, change: AnnotationChange): Promise<unknown>;
  onDelete(a: Annotation): Promise<unknown>;
  onImport(shapes: ShapeBody[]): Promise<unknown>;
  onMessage(text: string, intent: 'success' | 'error' | 'warning'): void;
}

/** The annotation list (spec §2): next/previous, the chosen one's name, description, colour and measurement; GeoJSON out and in. */
export function AnnotationPanel(p: Props) {
  const s = useStyles();
  const { t } = useTranslation();
  const file = useRef<HTMLInputElement>(null);
  const index = p.items.findIndex((a) => a.id === p.selectedId);
  const selected = index >= 0 ? p.items[index]! : null;
  const step = (d: number) => {
    if (!p.items.length) return;
    const next = p.items[(index + d + p.items.length) % p.items.length]!;
    p.onSelect(next);
  };

  const exportGeoJson = () => {
    const text = JSON.stringify(toGeoJson(p.items), null, 1);
    const url = URL.createObjectURL(new Blob([text], { type: 'application/geo+json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${p.slideName.replace(/[\\/:*?"<>|]/g, '_') || 'slide'}.geojson`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const importGeoJson = async (f: File) => {
    const got = fromGeoJson(await f.text());
    if ('problem' in got) return p.onMessage(t(`viewer.geojson.${got.problem}`), 'error');
    // Shapes under the minimum size would make the server refuse the whole import: left out and counted.
    const fit = got.shapes.filter((x) => largeEnough(x.type, x.points));
    const skipped = got.skipped + got.shapes.length - fit.length;
    await p.onImport(fit);
    p.onMessage(t('viewer.geojson.imported', { count: fit.length, skipped }), skipped ? 'warning' : 'success');
  };

  return (
    <div className={s.root} data-testid="annotation-panel">
      <div className={s.row}>
        <Button size="small" icon={<ChevronLeft20Regular />} data-testid="annotation-previous" disabled={!p.items.length} onClick={() => step(-1)}>{t('viewer.annotation.previous')}</Button>
        <Button size="small" icon={<ChevronRight20Regular />} iconPosition="after" data-testid="annotation-next" disabled={!p.items.length} onClick={() => step(1)}>{t('viewer.annotation.next')}</Button>
        <Text className={s.meta}>{t('viewer.annotation.count', { count: p.items.length })}</Text>
      </div>
      <div className={s.row}>
        <Button size="small" icon={<ArrowExportUp20Regular />} data-testid="geojson-export" disabled={!p.items.length} onClick={exportGeoJson}>{t('viewer.geojson.export')}</Button>
        {!p.readOnly && <Button size="small" icon={<ArrowImport20Regular />} data-testid="geojson-import" onClick={() => file.current?.click()}>{t('viewer.geojson.import')}</Button>}
        <input ref={file} type="file" accept=".geojson,.json,application/geo+json,application/json" hidden data-testid="geojson-file"
          onChange={(e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) void importGeoJson(f).catch(() => {}); }} />
      </div>
      <div className={s.list} role="listbox" aria-label={t('viewer.annotation.list')}>
        {p.items.length === 0 && <Text className={s.meta} style={{ padding: 8, display: 'block' }}>{t('viewer.annotation.none')}</Text>}
        {p.items.map((a) => (
          <div key={a.id} role="option" aria-selected={a.id === p.selectedId} data-testid="annotation-item" data-type={a.type}
            className={`${s.item} ${a.id === p.selectedId ? s.selected : ''}`} onClick={() => p.onSelect(a)}>
            <span className={s.dot} style={{ backgroundColor: a.color }} />
            <span className={s.grow}>{a.name || t(`viewer.shape.${a.type}`)}</span>
            <span className={s.meta}>{measureText(a)}</span>
          </div>
        ))}
      </div>
      {selected && <AnnotationForm key={`${selected.id}-${selected.version}`} a={selected} readOnly={p.readOnly || !p.editable(selected)} onChange={p.onChange} onDelete={p.onDelete} />}
    </div>
  );
}

function measureText(a: Annotation): string {
  if (a.length_um !== null) return formatLength(a.length_um);
  if (a.area_um2 !== null) return formatArea(a.area_um2);
  return '';
}

function AnnotationForm({ a, readOnly, onChange, onDelete }: { a: Annotation; readOnly: boolean; onChange: Props['onChange']; onDelete: Props['onDelete'] }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [name, setName] = useState(a.name);
  const [description, setDescription] = useState(a.description);
  const [classification, setClassification] = useState(a.classification);
  const [color, setColor] = useState(a.color);
  useEffect(() => { setName(a.name); setDescription(a.description); setClassification(a.classification); setColor(a.color); }, [a]);
  const dirty = name !== a.name || description !== a.description || classification !== a.classification || color !== a.color;
  return (
    <div className={s.form} data-testid="annotation-form">
      <Text className={s.meta}>
        {t(`viewer.shape.${a.type}`)} · {a.username ?? ''}
        {a.length_um !== null && ` · ${t('viewer.measure.length')} ${formatLength(a.length_um)}`}
        {a.area_um2 !== null && ` · ${t('viewer.measure.area')} ${formatArea(a.area_um2)} · ${t('viewer.measure.perimeter')} ${formatLength(a.perimeter_um ?? 0)}`}
      </Text>
      <Field label={t('viewer.annotation.name')} size="small">
        <Input size="small" data-testid="annotation-name" value={name} maxLength={100} readOnly={readOnly} onChange={(_, d) => setName(d.value)} />
      </Field>
      <Field label={t('viewer.annotation.classification')} size="small">
        <Input size="small" value={classification} maxLength={64} readOnly={readOnly} onChange={(_, d) => setClassification(d.value)} />
      </Field>
      <Field label={t('viewer.annotation.description')} size="small">
        <Textarea size="small" value={description} maxLength={2000} readOnly={readOnly} onChange={(_, d) => setDescription(d.value)} />
      </Field>
      <Field label={t('viewer.annotation.color')} size="small">
        <input type="color" value={color} disabled={readOnly} onChange={(e) => setColor(e.target.value)} />
      </Field>
      {!readOnly && (
        <div className={s.row}>
          <Button size="small" appearance="primary" data-testid="annotation-save" disabled={!dirty} onClick={() => void onChange(a, { name, description, classification, color }).catch(() => {})}>{t('viewer.annotation.save')}</Button>
          <Button size="small" icon={<Delete20Regular />} data-testid="annotation-delete" onClick={() => void onDelete(a).catch(() => {})}>{t('viewer.annotation.delete')}</Button>
        </div>
      )}
    </div>
  );
}
