import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';

/** The engine's visible failure: an unknown page type, a schema that did not load, a bad iframe address. */
export function ErrorPanel({ title, text, onRetry }: { title: string; text?: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <MessageBar intent="error" layout="multiline" data-testid="engine-error">
      <MessageBarBody>
        <MessageBarTitle>{title}</MessageBarTitle>
        {text}
      </MessageBarBody>
      {onRetry ? <MessageBarActions><Button onClick={onRetry}>{t('engine.retry')}</Button></MessageBarActions> : null}
    </MessageBar>
  );
}
