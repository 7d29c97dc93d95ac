import { Button, Field, Input, MessageBar, MessageBarBody, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Key20Regular } from '@fluentui/react-icons';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../api/notify';
import { SECURITY_KEY_NAME_MAX } from '../../core/securityKeys';
import { useConfirm } from '../../widgets/dialogs/ConfirmDialog';
import { deleteKey, myKeys, type MyKeys } from './api';
import { ceremonyError, registerSecurityKey } from './ceremony';
import { KeysTable, usePanelStyles } from './KeysTable';
import './words';

const useStyles = makeStyles({
  add: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end', flexWrap: 'wrap' },
  name: { minWidth: '280px' },
});

type State = { status: 'loading' } | { status: 'ready'; keys: MyKeys } | { status: 'error'; text: string };

/**
 * SystemAccount's "Security keys" (issue 17): the signed-in user registers a key under a name (the browser's
 * WebAuthn prompt), sees their keys with when each was added and last used, and deletes one. A page panel of the
 * schema engine (`"panels": ["securityKeys"]` in schemas/pages/SystemAccount.json).
 */
export default function SecurityKeysPanel() {
  const s = { ...usePanelStyles(), ...useStyles() };
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const [dialog, confirm] = useConfirm();

  const load = useCallback(() => {
    let live = true;
    myKeys().then((keys) => live && setState({ status: 'ready', keys }))
      .catch((e: unknown) => live && setState({ status: 'error', text: ceremonyError(e) }));
    return () => { live = false; };
  }, []);
  useEffect(load, [load]);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    setNameError(trimmed ? undefined : t('securityKey.nameRequired'));
    if (!trimmed) return;
    setBusy(true);
    setFailure('');
    try {
      await registerSecurityKey(trimmed);
      notify(t('securityKey.added', { name: trimmed }));
      setName('');
      load();
    } catch (err) {
      setFailure(ceremonyError(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (id: number, keyName: string) => {
    if (!(await confirm({ title: t('securityKey.deleteTitle'), message: t('securityKey.deleteText', { name: keyName }), danger: true }))) return;
    try {
      await deleteKey(id);
      notify(t('securityKey.deleted'));
    } catch (err) {
      setFailure(ceremonyError(err));
    }
    load();
  };

  const allowed = state.status === 'ready' && state.keys.allowed;
  return (
    <section className={s.root} data-testid="security-keys">
      <h3 className={s.title}>{t('securityKey.title')}</h3>
      <Text>{t('securityKey.intro')}</Text>
      {state.status === 'loading' ? <Spinner size="small" /> : null}
      {state.status === 'error' ? <MessageBar intent="error"><MessageBarBody>{t('securityKey.loadFailed')}: {state.text}</MessageBarBody></MessageBar> : null}
      {state.status === 'ready' && !allowed ? (
        <MessageBar intent="info" data-testid="security-keys-not-allowed"><MessageBarBody>{t('securityKey.notAllowed')}</MessageBarBody></MessageBar>
      ) : null}
      {allowed ? (
        <form className={s.add} onSubmit={(e) => void add(e)}>
          <Field className={s.name} label={t('securityKey.name')} validationMessage={nameError}>
            <Input value={name} maxLength={SECURITY_KEY_NAME_MAX} placeholder={t('securityKey.namePlaceholder')} onChange={(_, d) => setName(d.value)} data-testid="security-key-name" />
          </Field>
          <Button appearance="primary" type="submit" icon={busy ? <Spinner size="tiny" /> : <Key20Regular />} disabled={busy} data-testid="security-key-add">
            {busy ? t('securityKey.adding') : t('securityKey.add')}
          </Button>
        </form>
      ) : null}
      {failure ? <MessageBar intent="error" data-testid="security-key-error"><MessageBarBody>{failure}</MessageBarBody></MessageBar> : null}
      {state.status === 'ready' && state.keys.data.length === 0 ? <Text italic>{t('securityKey.none')}</Text> : null}
      {state.status === 'ready' && state.keys.data.length > 0 ? (
        <KeysTable keys={state.keys.data} caption={t('securityKey.title')} actionLabel={t('securityKey.delete')} onAction={(k) => void remove(k.id, k.name)}
          testIds={{ table: 'security-key-list', row: 'security-key-row', action: 'security-key-delete' }} />
      ) : null}
      {dialog}
    </section>
  );
}
