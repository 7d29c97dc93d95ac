import { Button, makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  root: { minHeight: '60vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: tokens.spacingVerticalM, textAlign: 'center', padding: tokens.spacingHorizontalXXL },
  code: { fontSize: '64px', fontWeight: tokens.fontWeightBold, color: tokens.colorBrandForeground1, lineHeight: 1 },
  title: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  text: { color: tokens.colorNeutralForeground2, maxWidth: '560px' },
});

/** The one layout for "nothing to show here" pages: 404, error, page not built yet. */
export function MessagePage({ code, title, text, action, testId }: { code?: string; title: string; text: ReactNode; action?: { label: string; onClick(): void }; testId?: string }) {
  const s = useStyles();
  return (
    <div className={s.root} data-testid={testId}>
      {code ? <div className={s.code}>{code}</div> : null}
      <div className={s.title}>{title}</div>
      <div className={s.text}>{text}</div>
      {action ? <Button appearance="primary" onClick={action.onClick}>{action.label}</Button> : null}
    </div>
  );
}
