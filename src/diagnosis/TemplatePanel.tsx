import { Button, Caption1, Tree, TreeItem, TreeItemLayout } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { Phrase, TemplateNode } from './api';

/** Diagnostic templates as a tree (click: fill the report from it) and phrases (click: insert at the cursor). */
export function TemplatePanel({ templates, phrases, disabled, onTemplate, onPhrase }: {
  templates: TemplateNode[]; phrases: Phrase[]; disabled: boolean; onTemplate(t: TemplateNode): void; onPhrase(p: Phrase): void;
}) {
  const { t } = useTranslation();
  const branch = (nodes: TemplateNode[]) => nodes.map((n) => (
    <TreeItem key={n.id} itemType={n.children.length ? 'branch' : 'leaf'} value={String(n.id)} data-template={n.name}>
      <TreeItemLayout aside={n.diagnosis || n.microscopic || n.gross_description ? (
        <Button size="small" appearance="subtle" disabled={disabled} onClick={(e) => { e.stopPropagation(); onTemplate(n); }} data-testid={`apply-template-${n.id}`}>{t('diagnosis.applyTemplate')}</Button>
      ) : undefined}>{n.name}</TreeItemLayout>
      {n.children.length ? <Tree>{branch(n.children)}</Tree> : null}
    </TreeItem>
  ));
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <b>{t('diagnosis.templates')}</b>
      {templates.length ? <Tree aria-label={t('diagnosis.templates')} defaultOpenItems={templates.map((n) => String(n.id))}>{branch(templates)}</Tree> : <Caption1>{t('diagnosis.noTemplates')}</Caption1>}
      <b>{t('diagnosis.phrases')}</b>
      {phrases.length ? (
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4 }}>
          {phrases.map((p) => (
            <Button key={p.id} size="small" disabled={disabled} title={t('diagnosis.insertPhrase')} onMouseDown={(e) => e.preventDefault()} onClick={() => onPhrase(p)} data-phrase={p.text}>{p.text}</Button>
          ))}
        </div>
      ) : <Caption1>{t('diagnosis.noPhrases')}</Caption1>}
    </div>
  );
}
