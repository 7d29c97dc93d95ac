import { MessageBar, MessageBarBody, Spinner, Text } from '@fluentui/react-components';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayText } from '../../api/client';
import { notify } from '../../api/notify';
import { isGranted } from '../../core/actions';
import { useGrants } from '../../engine/useGrants';
import { useConfirm } from '../../widgets/dialogs/ConfirmDialog';
import { memberKeys, removeMemberKey, type MemberKey } from './api';
import { KeysTable, usePanelStyles, type KeyRow } from './KeysTable';
import './words';

/** The permission the server asks for (server/modules/webauthn/member-routes.ts): managing users. */
const PERMISSION = 'system_user';

const who = (k: MemberKey) => (k.realname && k.realname !== k.username ? `${k.realname} (${k.username})` : k.username);

type State = { status: 'loading' } | { status: 'ready'; keys: MemberKey[] } | { status: 'error'; text: string };

/**
 * SettingSecurityKeys' "Users' security keys": an administrator who manages users sees the keys of the users of
 * the hospital they work in and removes one (a lost key); nothing else of its owner changes. Drawn only for those
 * the server lets do it. A page panel of the schema engine (`"panels": ["memberSecurityKeys"]`).
 */
export default function MemberKeysPanel() {
  const grants = useGrants();
  return isGranted(PERMISSION, grants) ? <MemberKeys /> : null;
}

function MemberKeys() {
  const s = usePanelStyles();
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [failure, setFailure] = useState('');
  const [dialog, confirm] = useConfirm();

  const load = useCallback(() => {
    let live = true;
    memberKeys().then((r) => live && setState({ status: 'ready', keys: r.data }))
      .catch((e: unknown) => live && setState({ status: 'error', text: displayText(e, t('securityKey.failed')) }));
    return () => { live = false; };
  }, [t]);
  useEffect(load, [load]);

  const remove = async (k: KeyRow) => {
    const words = { name: k.name, user: k.owner ?? '' };
    if (!(await confirm({ title: t('securityKey.members.removeTitle'), message: t('securityKey.members.removeText', words), danger: true }))) return;
    setFailure('');
    try {
      await removeMemberKey(k.id);
      notify(t('securityKey.members.removed', words));
    } catch (err) {
      setFailure(displayText(err, t('securityKey.failed')));
    }
    load();
  };

  return (
    <section className={s.root} data-testid="member-security-keys">
      <h3 className={s.title}>{t('securityKey.members.title')}</h3>
      <Text>{t('securityKey.members.intro')}</Text>
      {state.status === 'loading' ? <Spinner size="small" /> : null}
      {state.status === 'error' ? <MessageBar intent="error"><MessageBarBody>{t('securityKey.members.loadFailed')}: {state.text}</MessageBarBody></MessageBar> : null}
      {failure ? <MessageBar intent="error" data-testid="member-security-key-error"><MessageBarBody>{failure}</MessageBarBody></MessageBar> : null}
      {state.status === 'ready' && state.keys.length === 0 ? <Text italic>{t('securityKey.members.none')}</Text> : null}
      {state.status === 'ready' && state.keys.length > 0 ? (
        <KeysTable keys={state.keys.map((k) => ({ ...k, owner: who(k) }))} caption={t('securityKey.members.title')} actionLabel={t('securityKey.members.remove')}
          onAction={(k) => void remove(k)} testIds={{ table: 'member-security-key-list', row: 'member-security-key-row', action: 'member-security-key-remove' }} />
      ) : null}
      {dialog}
    </section>
  );
}
