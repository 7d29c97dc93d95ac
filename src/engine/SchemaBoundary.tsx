import { Component, createContext, useContext, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { logLocalError } from '../db/errorLog';
import { useSession } from '../store/session';
import { ErrorPanel } from './ErrorPanel';
import { ruleCostText } from './ruleCostText';

/** The page alias around a schema part, for the error panel's text. */
const AliasContext = createContext('');

interface Props {
  /** JSON pointer of the schema part drawn inside (`/form`, `/list/columns`), or of the page type for the whole page. */
  path: string;
  /** Only at the page's root: names the alias for every part inside. */
  alias?: string;
  children: ReactNode;
}

/**
 * A render error inside a schema page stays there. Hospital overrides change what the engine draws
 * without a deploy, so a bad one (a widget rjsf does not know, a column its cell cannot draw) must
 * break one part of one page — shown with the alias and the schema path of the part, so the
 * administrator knows what to roll back in the schema editor — never the menu or the other pages
 * (the app's own ErrorBoundary would send the user to /error). The innermost part catches. A hospital rule
 * stopped at its work limit (src/core/ruleBudget.ts) says so in the user's language.
 */
export class SchemaBoundary extends Component<Props, { error: Error | null }> {
  state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: Error) {
    const user = useSession.getState().user;
    void logLocalError({
      time: new Date().toISOString(), user: { id: user?.id ?? null, realname: user?.realname ?? null },
      error: `${this.props.alias ?? ''}${this.props.path} ${error.name}: ${error.message}`, page: window.location.pathname,
    });
  }

  render() {
    const { error } = this.state;
    const inner = this.props.alias !== undefined ? <AliasContext.Provider value={this.props.alias}>{this.props.children}</AliasContext.Provider> : this.props.children;
    if (!error) return inner;
    return <PartFailed path={this.props.path} alias={this.props.alias} error={error} onRetry={() => this.setState({ error: null })} />;
  }
}

/** rjsf and others put whole schemas in their messages: the panel keeps the start, the local error log has it all. */
const firstLine = (message: string) => {
  const line = message.split('\n')[0];
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
};

function PartFailed({ path, alias, error, onRetry }: { path: string; alias?: string; error: Error; onRetry(): void }) {
  const { t } = useTranslation();
  const around = useContext(AliasContext);
  const name = alias ?? around;
  return (
    <div data-testid="schema-error" data-alias={name} data-path={path}>
      <ErrorPanel title={t('engine.partFailed', { alias: name })} text={ruleCostText(t, error) ?? t('engine.partFailedText', { path, message: firstLine(error.message) })} onRetry={onRetry} />
    </div>
  );
}
