import type { TFunction } from 'i18next';
import { useMemo } from 'react';

/** The query builder's button words, shared by the rule builder and the tab-filter builder. */
export function useBuilderTranslations(t: TFunction) {
  return useMemo(() => ({
    addRule: { label: t('designer.addCondition'), title: t('designer.addCondition') },
    addGroup: { label: t('designer.addGroup'), title: t('designer.addGroup') },
    removeRule: { label: '⨯', title: t('designer.remove') },
    removeGroup: { label: '⨯', title: t('designer.remove') },
  }), [t]);
}
