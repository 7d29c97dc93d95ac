import { ProgressBar, makeStyles, tokens } from '@fluentui/react-components';
import { registerCell, type CellProps } from './registry';

/** Work under way (a slide's conversion): a bar and its percentage; nothing when there is none. */
const useStyles = makeStyles({
  wrap: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalS, width: '100%' },
  bar: { flexGrow: 1, minWidth: '48px' },
});

const percent = (v: unknown) => Math.max(0, Math.min(100, Math.round(Number(v))));

function ProgressCell({ value }: CellProps) {
  const s = useStyles();
  if (value === undefined || value === null || value === '' || !Number.isFinite(Number(value))) return null;
  return (
    <span className={s.wrap} data-progress={percent(value)}>
      <ProgressBar className={s.bar} value={percent(value) / 100} thickness="large" />
      <span>{percent(value)}%</span>
    </span>
  );
}

registerCell('progress', { text: (_c, v) => `${percent(v)}%`, Component: ProgressCell });
