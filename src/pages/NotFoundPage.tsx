import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { MessagePage } from './MessagePage';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return <MessagePage code="404" title={t('notFound.title')} text={t('notFound.text')} action={{ label: t('common.backHome'), onClick: () => navigate('/manage') }} testId="not-found" />;
}
