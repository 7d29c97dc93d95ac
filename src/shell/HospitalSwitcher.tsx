import { Button, Menu, MenuItemRadio, MenuList, MenuPopover, MenuTrigger, Switch, Tooltip } from '@fluentui/react-components';
import { BuildingMultiple20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { switchHospital } from '../api/auth';
import { useSession } from '../store/session';

/**
 * Users may belong to several hospitals (spec §1); the chosen one (HB) scopes queries unless the
 * show-all-data switch asks for all of the user's hospitals (spec §6).
 */
export function HospitalSwitcher() {
  const { t, i18n } = useTranslation();
  const { user, hospitalId, setHospital, showAllData, setShowAllData } = useSession();
  const hospitals = user?.hospitals.data ?? [];
  if (hospitals.length === 0) return null;
  const label = (h: (typeof hospitals)[number]) => (i18n.language === 'en-US' ? h.en_name : h.name);
  const current = hospitals.find((h) => h.id === hospitalId) ?? hospitals[0];

  const change = async (id: number) => {
    if (id === current.id) return;
    await switchHospital(id);
    setHospital(id);
    window.location.reload();
  };

  return (
    <>
      {hospitals.length > 1 ? (
        <Tooltip content={t('header.showAllDataHint')} relationship="description">
          <Switch label={t('header.showAllData')} checked={showAllData} onChange={(_, d) => setShowAllData(d.checked)} data-testid="show-all-data" />
        </Tooltip>
      ) : null}
      <Menu checkedValues={{ hospital: [String(current.id)] }} onCheckedValueChange={(_, d) => void change(Number(d.checkedItems[0]))}>
        <MenuTrigger disableButtonEnhancement>
          <Button appearance="subtle" icon={<BuildingMultiple20Regular />} disabled={hospitals.length < 2} aria-label={t('header.hospital')} data-testid="hospital-switcher">
            {label(current)}
          </Button>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            {hospitals.map((h) => <MenuItemRadio key={h.id} name="hospital" value={String(h.id)}>{label(h)}</MenuItemRadio>)}
          </MenuList>
        </MenuPopover>
      </Menu>
    </>
  );
}
