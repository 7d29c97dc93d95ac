import { Component, type ReactNode } from 'react';
import { ErrorPanel } from '../../engine/ErrorPanel';
import i18n from '../../i18n';

/** The preview of a schema being edited may throw (a bad uiSchema for rjsf); show it, keep the editor alive. */
export class ErrorBoundaryPanel extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? <ErrorPanel title={i18n.t('schemaEditor.previewFailed')} text={this.state.error.message} /> : this.props.children;
  }
}
