import { useTranslation } from 'react-i18next';
import { MessagePage } from './MessagePage';

export default function ErrorPage() {
  const { t } = useTranslation();
  return <MessagePage code="!" title={t('errorPage.title')} text={t('errorPage.text')} action={{ label: t('common.backHome'), onClick: () => window.location.assign('/manage') }} testId="error-page" />;
}
