import { useTranslation } from 'react-i18next';
import type { StatKind } from './api';
import StatisticsPage from './StatisticsPage';
import './words';

/**
 * The statistics menu pages (spec §2 aliases) and what each shows. SlideStatistics also carries the case statistics
 * of spec §2 (workload, timeouts, rejected specimens), which have no menu alias of their own.
 */
export const STAT_PAGES: Record<string, StatKind[]> = {
  SlideStatistics: ['slides', 'workload', 'timeout', 'rejected'],
  ScannerStatistics: ['scanner'],
  ScanAccessStatistics: ['scan_access'],
  SlideViewStatistics: ['slide_views'],
  // Income (spec §2): the charges captured at registration and ordering, at the prices of SettingPrice.
  IncomeStatistics: ['income'],
};

function page(alias: keyof typeof STAT_PAGES) {
  return function AliasStatistics() {
    const { t } = useTranslation();
    return <StatisticsPage key={alias} title={t(`stat.titles.${alias}`)} kinds={STAT_PAGES[alias]} />;
  };
}

export const SlideStatistics = page('SlideStatistics');
export const ScannerStatistics = page('ScannerStatistics');
export const ScanAccessStatistics = page('ScanAccessStatistics');
export const SlideViewStatistics = page('SlideViewStatistics');
export const IncomeStatistics = page('IncomeStatistics');
