import { Button, Dropdown, Input, Option, makeStyles, tokens } from '@fluentui/react-components';
import { ChevronLeft20Regular, ChevronRight20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '../../core/constants';
import { pagerPages, totalPages } from '../../core/listParams';

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', justifyContent: 'flex-end', paddingBlock: tokens.spacingVerticalS },
  sizes: { minWidth: '120px' },
  page: { minWidth: '32px' },
  jumper: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  jumpInput: { width: '64px' },
});

export interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  sizes?: readonly number[];
  onChange(page: number, pageSize: number): void;
}

/**
 * The pager of spec §9: layout total, sizes, prev, pager, next, jumper; 3 page buttons; hidden when
 * everything fits on one page.
 */
export function Pager({ page, pageSize, total, sizes = PAGE_SIZES, onChange }: PagerProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const [jump, setJump] = useState('');
  const pages = totalPages(total, pageSize);
  if (pages <= 1) return null;
  const options = sizes.includes(pageSize) ? sizes : [...sizes, pageSize].sort((a, b) => a - b);
  const go = (p: number) => onChange(Math.min(pages, Math.max(1, p)), pageSize);

  return (
    <nav className={s.root} aria-label={t('pager.label')} data-testid="pager">
      <span>{t('pager.total', { total })}</span>
      <Dropdown className={s.sizes} value={t('pager.perPage', { size: pageSize })} selectedOptions={[String(pageSize)]}
        aria-label={t('pager.pageSize')}
        onOptionSelect={(_, d) => d.optionValue && onChange(1, Number(d.optionValue))}>
        {options.map((n) => <Option key={n} value={String(n)} text={t('pager.perPage', { size: n })}>{t('pager.perPage', { size: n })}</Option>)}
      </Dropdown>
      <Button icon={<ChevronLeft20Regular />} appearance="subtle" disabled={page <= 1} aria-label={t('pager.prev')} onClick={() => go(page - 1)} />
      {pagerPages(page, pages).map((p) => (
        <Button key={p} className={s.page} appearance={p === page ? 'primary' : 'subtle'} aria-current={p === page ? 'page' : undefined} onClick={() => go(p)}>
          {p}
        </Button>
      ))}
      <Button icon={<ChevronRight20Regular />} appearance="subtle" disabled={page >= pages} aria-label={t('pager.next')} onClick={() => go(page + 1)} />
      <span className={s.jumper}>
        {t('pager.goTo')}
        <Input className={s.jumpInput} type="number" min={1} max={pages} value={jump} aria-label={t('pager.goTo')}
          onChange={(_, d) => setJump(d.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || !jump) return;
            go(Math.trunc(Number(jump)) || 1);
            setJump('');
          }} />
      </span>
    </nav>
  );
}
