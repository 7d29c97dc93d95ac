import { makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { ErrorPanel } from '../ErrorPanel';
import type { RendererProps } from '../registry';

const useStyles = makeStyles({ frame: { width: '100%', height: 'calc(100vh - 120px)', border: 'none', display: 'block' } });

/**
 * An embedded page (InnerIframe): the address comes from a query parameter and must be this site or one
 * of the schema's allowed origins, so a crafted link cannot frame an arbitrary site inside the app.
 */
export default function IframePage({ page }: RendererProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const location = useLocation();
  const param = page.schema.iframe?.urlParam ?? 'url';
  const raw = new URLSearchParams(location.search).get(param);
  if (!raw) return <ErrorPanel title={t('engine.iframeMissing', { param })} />;
  const origin = typeof window === 'undefined' ? 'http://localhost' : window.location.origin;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return <ErrorPanel title={t('engine.iframeRefused')} text={raw} />;
  }
  const allowed = [origin, ...(page.schema.iframe?.allowedOrigins ?? [])];
  if (!/^https?:$/.test(url.protocol) || !allowed.includes(url.origin)) return <ErrorPanel title={t('engine.iframeRefused')} text={url.origin} />;
  return <iframe className={s.frame} src={url.href} title={page.alias} data-testid="iframe-page" />;
}
