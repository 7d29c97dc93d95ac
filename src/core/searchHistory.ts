/** Spec §9: search history keeps 20 entries per search type; suggestions show at most 10. */
export const SEARCH_HISTORY_CAP = 20;
export const SEARCH_SUGGESTION_CAP = 10;

/**
 * Spec §5: search history per search type, capped at 20 (oldest removed). The newest entry comes
 * first; searching for an entry again moves it to the front instead of storing it twice.
 */
export function addSearchHistory(history: readonly string[], entry: string, cap = SEARCH_HISTORY_CAP): string[] {
  const text = entry.trim();
  if (!text) return [...history];
  return [text, ...history.filter((h) => h !== text)].slice(0, cap);
}

/**
 * Spec §5: suggestions at most 10 when the input is empty; otherwise filtered by case-insensitive
 * substring and longer than the input (an entry equal to what is typed suggests nothing new).
 */
export function searchSuggestions(history: readonly string[], input: string, cap = SEARCH_SUGGESTION_CAP): string[] {
  if (!input) return history.slice(0, cap);
  const needle = input.toLowerCase();
  return history.filter((h) => h.length > input.length && h.toLowerCase().includes(needle));
}
