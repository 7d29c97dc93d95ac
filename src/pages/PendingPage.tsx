import { useTranslation } from 'react-i18next';
import { MessagePage } from './MessagePage';

/** An alias the menu grants but no page implements yet: say so plainly and name it (never a blank page). */
export default function PendingPage({ alias, name }: { alias: string; name?: string }) {
  const { t } = useTranslation();
  return <MessagePage title={t('pending.title', { name: name || alias })} text={t('pending.text', { alias })} testId="page-pending" />;
}
