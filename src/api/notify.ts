import { TOAST_THROTTLE_MS } from '../core/constants';
import { throttle } from '../core/throttle';

export type ToastIntent = 'error' | 'success' | 'warning' | 'info';
type Sink = (text: string, intent: ToastIntent) => void;

let sink: Sink = () => {};

/** The toaster component registers itself here so non-React code (the API client) can raise toasts. */
export function setToastSink(next: Sink): void {
  sink = next;
}

/** Errors are throttled at 100 ms (spec §8) so a burst of failures shows one toast, not a wall. */
export const notifyError = throttle((text: string) => sink(text, 'error'), TOAST_THROTTLE_MS);
export const notify = (text: string, intent: ToastIntent = 'success') => sink(text, intent);
