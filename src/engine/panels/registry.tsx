import { Spinner } from '@fluentui/react-components';
import { Suspense, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyChunk } from '../../shell/lazyChunk';
import { ErrorPanel } from '../ErrorPanel';
import { namedRegistry } from '../../core/namedRegistry';

/**
 * Panel name → a hand-written part of a schema page, for what the engine cannot express (a browser ceremony such
 * as registering a security key). A page lists its panels by name (`"panels": [...]`); each is its own chunk,
 * loaded only by a page that draws it. An unknown name shows a visible error panel, as an unknown page type does.
 */
const panels = namedRegistry<ComponentType>('panel');

export function registerPanel(name: string, load: () => Promise<{ default: ComponentType }>): void {
  panels.register(name, lazyChunk(load));
}

export const panelNames = (): string[] => panels.names();

registerPanel('securityKeys', () => import('../../pages/security-keys/SecurityKeysPanel'));
registerPanel('memberSecurityKeys', () => import('../../pages/security-keys/MemberKeysPanel'));

/** The page's panels in order, below what the engine drew. */
export function PagePanels({ names }: { names: readonly string[] | undefined }) {
  const { t } = useTranslation();
  if (!names?.length) return null;
  return (
    <>
      {names.map((name) => {
        const Panel = panels.get(name);
        if (!Panel) return <ErrorPanel key={name} title={t('engine.unknownPanel', { name })} text={t('engine.unknownPanelText')} />;
        return <Suspense key={name} fallback={<Spinner size="small" />}><Panel /></Suspense>;
      })}
    </>
  );
}
