/** A user's saved language (users.extra.lang, written by transform_language); null when none or unreadable. */
export function savedLanguage(extra: string | null | undefined): 'zh-CN' | 'en-US' | null {
  try {
    const lang = (JSON.parse(extra ?? '{}') as { lang?: unknown }).lang;
    return lang === 'zh-CN' || lang === 'en-US' ? lang : null;
  } catch {
    return null;
  }
}
