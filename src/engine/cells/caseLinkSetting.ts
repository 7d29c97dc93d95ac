import { create } from 'zustand';
import { onWrite } from '../../api/client';
import { httpDataProvider } from '../dataProvider';

/**
 * Whether a pathology number opens its case in a new tab (system_config.case_link_new_tab, System settings ›
 * SettingOther; spec §2 "/case/{id} … new tab when the link is set so"). Read once per session and again after
 * this browser saves a setting; a missing or unreadable setting keeps the link in the same tab.
 */
export const useCaseLinkSetting = create<{ newTab: boolean }>(() => ({ newTab: false }));

let loading: Promise<void> | null = null;

export function loadCaseLinkSetting(): Promise<void> {
  loading ??= httpDataProvider.getSetting('system_config', { silent: true })
    .then((raw) => {
      const config = typeof raw === 'string' ? JSON.parse(raw) as unknown : raw;
      const newTab = !!config && typeof config === 'object' && (config as Record<string, unknown>).case_link_new_tab === true;
      useCaseLinkSetting.setState({ newTab });
    })
    .catch(() => { loading = null; });
  return loading;
}

// Read again once a settings write has ended (not as it leaves: that read could answer the old value last).
onWrite(({ url, phase }) => {
  if (phase !== 'done' || url !== '/common/setting') return;
  loading = null;
  void loadCaseLinkSetting();
});
