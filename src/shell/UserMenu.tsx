import {
  Avatar, Button, Menu, MenuItem, MenuItemRadio, MenuList, MenuPopover, MenuTrigger, MenuDivider,
} from '@fluentui/react-components';
import {
  DocumentBulletList20Regular, LocalLanguage20Regular, LockClosed20Regular, PersonCircle20Regular, PersonSwap20Regular, SignOut20Regular,
} from '@fluentui/react-icons';
import { Suspense, useState } from 'react';
import { lazyChunk } from './lazyChunk';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { chooseLanguage } from '../i18n';
import type { Language } from '../core/constants';
import { useSession } from '../store/session';

const ChangeAccountDialog = lazyChunk(() => import('./ChangeAccountDialog'));

/** Header user menu of spec §2: lock screen, account settings, language, update log, change account, logout. */
export function UserMenu({ onLogout }: { onLogout(): void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { user, lock } = useSession();
  const [changing, setChanging] = useState(false);

  return (
    <>
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Button appearance="subtle" icon={<Avatar name={user?.realname} size={24} color="colorful" />} data-testid="user-menu">
            {user?.realname}
          </Button>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            <MenuItem icon={<LockClosed20Regular />} onClick={() => lock(window.location.pathname + window.location.search)}>{t('user.lockScreen')}</MenuItem>
            <MenuItem icon={<PersonCircle20Regular />} onClick={() => navigate('/manage/system/account')}>{t('user.accountSettings')}</MenuItem>
            <Menu checkedValues={{ lang: [i18n.language] }} onCheckedValueChange={(_, d) => chooseLanguage(d.checkedItems[0] as Language)}>
              <MenuTrigger disableButtonEnhancement>
                <MenuItem icon={<LocalLanguage20Regular />}>{t('user.language')}</MenuItem>
              </MenuTrigger>
              <MenuPopover>
                <MenuList>
                  <MenuItemRadio name="lang" value="zh-CN">{t('languageName.zh-CN')}</MenuItemRadio>
                  <MenuItemRadio name="lang" value="en-US">{t('languageName.en-US')}</MenuItemRadio>
                </MenuList>
              </MenuPopover>
            </Menu>
            <MenuItem icon={<DocumentBulletList20Regular />} onClick={() => window.open('/update-log', '_blank', 'noopener')}>{t('user.updateLog')}</MenuItem>
            <MenuDivider />
            <MenuItem icon={<PersonSwap20Regular />} onClick={() => setChanging(true)}>{t('user.changeAccount')}</MenuItem>
            <MenuItem icon={<SignOut20Regular />} onClick={onLogout}>{t('user.logout')}</MenuItem>
          </MenuList>
        </MenuPopover>
      </Menu>
      {changing ? <Suspense fallback={null}><ChangeAccountDialog open onClose={() => setChanging(false)} /></Suspense> : null}
    </>
  );
}
