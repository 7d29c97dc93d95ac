/**
 * The text to show for a failed call (spec §8): with no `errors` object, `message` (first item if it
 * is an array); `errors` as a list: the first item's code; `errors` keyed by field: the first message
 * of the first field.
 */
export function errorText(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return typeof body === 'string' && body ? body : undefined;
  const { message, errors } = body as { message?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.length) {
    const first = errors[0] as { code?: unknown; message?: unknown } | string;
    if (typeof first === 'string') return first;
    if (first && first.code !== undefined) return String(first.code);
  }
  if (errors && typeof errors === 'object' && !Array.isArray(errors)) {
    const firstField = Object.values(errors as Record<string, unknown>)[0];
    const text = Array.isArray(firstField) ? firstField[0] : firstField;
    if (text !== undefined && text !== null && text !== '') return String(text);
  }
  if (Array.isArray(message)) return message.length ? String(message[0]) : undefined;
  if (typeof message === 'string' && message) return message;
  return undefined;
}

/** Blob error responses (downloads) carry JSON inside the blob; parse it and extract the same way. */
export function errorTextFromBlobText(text: string): string | undefined {
  try {
    return errorText(JSON.parse(text));
  } catch {
    return undefined;
  }
}
