import { Combobox, Option, makeStyles, mergeClasses } from '@fluentui/react-components';
import { Search20Regular } from '@fluentui/react-icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addSearchHistory, searchSuggestions } from '../../core/searchHistory';
import { pis } from '../../db/pis';

const useStyles = makeStyles({
  box: { minWidth: '220px' },
  large: { width: 'min(640px, 100%)' },
});

/** History per search type in the 'pis' database's `search` table (key name), newest first. */
async function readHistory(name: string): Promise<string[]> {
  try {
    const row = (await pis.search.get(name)) as { history?: string[] } | undefined;
    return row?.history ?? [];
  } catch {
    return [];
  }
}
async function writeHistory(name: string, history: string[]) {
  try {
    await pis.search.put({ name, history });
  } catch {
    // Private browsing can refuse IndexedDB; history is a convenience, the search still runs.
  }
}

/**
 * The keyword box: free text written to `search`, with the search history of spec §5 (20 kept,
 * at most 10 suggested on an empty box, otherwise entries containing the text and longer than it).
 */
export function KeywordBox({ value, historyKey, onSearch, large, placeholder }: {
  value: string; historyKey: string; onSearch(text: string): void; large?: boolean; placeholder?: string;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const [history, setHistory] = useState<string[]>([]);
  // The address echoing this box's own search comes back a render later (later still on a busy machine): it must
  // not overwrite what was typed since (a scanner's next code). Only a search from elsewhere (back, a link) resets it.
  const committed = useRef(value);
  useEffect(() => {
    if (value !== committed.current) setText(value);
    committed.current = value;
  }, [value]);
  useEffect(() => {
    let live = true;
    void readHistory(historyKey).then((h) => live && setHistory(h));
    return () => { live = false; };
  }, [historyKey]);

  const commit = (next: string) => {
    const q = next.trim();
    setText(q);
    committed.current = q;
    if (q) {
      const h = addSearchHistory(history, q);
      setHistory(h);
      void writeHistory(historyKey, h);
    }
    if (q !== value) onSearch(q);
  };

  return (
    <Combobox className={mergeClasses(s.box, large && s.large)} size={large ? 'large' : 'medium'} freeform value={text} placeholder={placeholder ?? t('search.keyword')} aria-label={t('search.keyword')} expandIcon={<Search20Regular />}
      data-testid="keyword-box"
      onChange={(e) => setText(e.target.value)}
      onOptionSelect={(_, d) => d.optionValue !== undefined && commit(d.optionValue)}
      onKeyDown={(e) => e.key === 'Enter' && commit((e.target as HTMLInputElement).value)}
      onBlur={(e) => !e.target.value && value && commit('')}>
      {searchSuggestions(history, text === value && text ? '' : text).map((h) => <Option key={h} value={h}>{h}</Option>)}
    </Combobox>
  );
}
