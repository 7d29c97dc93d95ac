import { api, unwrap } from '../api/client';

/**
 * Does the hospital protect PDFs (system_config.pdf_protect, SettingOther)? Protected unless the setting says
 * false: a missing or unreadable setting must not open printing.
 */
export async function pdfProtected(): Promise<boolean> {
  try {
    const raw = await unwrap<unknown>(api.get('/common/setting/get', { params: { settings_key: 'system_config' }, silent: true }));
    const config = typeof raw === 'string' ? JSON.parse(raw) : raw;
    return !(config && typeof config === 'object' && (config as Record<string, unknown>).pdf_protect === false);
  } catch {
    return true;
  }
}

/** The document's bytes through the API client (the session's token goes in the header, never in the address). */
export async function fetchPdf(address: string): Promise<ArrayBuffer> {
  const { data } = await api.get<ArrayBuffer>(address.replace(/^\/api/, ''), { responseType: 'arraybuffer', silent: true });
  return data;
}

/** `%PDF-` at the start: anything else (an HTML error page, an image) is refused before pdf.js sees it. */
export const looksLikePdf = (bytes: ArrayBuffer): boolean =>
  new TextDecoder().decode(new Uint8Array(bytes, 0, Math.min(5, bytes.byteLength))) === '%PDF-';
