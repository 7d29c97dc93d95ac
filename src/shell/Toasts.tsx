import { Toast, ToastTitle, Toaster, useId, useToastController } from '@fluentui/react-components';
import { useEffect } from 'react';
import { setToastSink } from '../api/notify';

/** Mounts Fluent's toaster and hands it to non-React code through the notify sink. */
export function Toasts() {
  const toasterId = useId('toaster');
  const { dispatchToast } = useToastController(toasterId);
  useEffect(() => {
    setToastSink((text, intent) =>
      dispatchToast(<Toast><ToastTitle>{text}</ToastTitle></Toast>, { intent, position: 'top', timeout: intent === 'error' ? 5000 : 3000 }));
  }, [dispatchToast]);
  return <Toaster toasterId={toasterId} />;
}
