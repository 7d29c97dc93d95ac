import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { PaletteName } from '../../core/palette';

/**
 * The palette families of src/core/palette.ts as the theme draws them: `text` colours a value's text (a case's
 * pathology number), `badge` fills a badge in that family's tint (a case's status box). Theme tokens, so dark
 * themes and high contrast keep their own shades.
 */
const family = (fg: string, bg: string, border: string) => ({ fg, bg, border });
const FAMILIES: Record<PaletteName, ReturnType<typeof family>> = {
  red: family(tokens.colorPaletteRedForeground2, tokens.colorPaletteRedBackground2, tokens.colorPaletteRedBorderActive),
  cranberry: family(tokens.colorPaletteCranberryForeground2, tokens.colorPaletteCranberryBackground2, tokens.colorPaletteCranberryBorderActive),
  pink: family(tokens.colorPalettePinkForeground2, tokens.colorPalettePinkBackground2, tokens.colorPalettePinkBorderActive),
  marigold: family(tokens.colorPaletteMarigoldForeground2, tokens.colorPaletteMarigoldBackground2, tokens.colorPaletteMarigoldBorderActive),
  gold: family(tokens.colorPaletteGoldForeground2, tokens.colorPaletteGoldBackground2, tokens.colorPaletteGoldBorderActive),
  yellow: family(tokens.colorPaletteYellowForeground2, tokens.colorPaletteYellowBackground2, tokens.colorPaletteYellowBorderActive),
  green: family(tokens.colorPaletteGreenForeground2, tokens.colorPaletteGreenBackground2, tokens.colorPaletteGreenBorderActive),
  teal: family(tokens.colorPaletteTealForeground2, tokens.colorPaletteTealBackground2, tokens.colorPaletteTealBorderActive),
  blue: family(tokens.colorPaletteBlueForeground2, tokens.colorPaletteBlueBackground2, tokens.colorPaletteBlueBorderActive),
  purple: family(tokens.colorPalettePurpleForeground2, tokens.colorPalettePurpleBackground2, tokens.colorPalettePurpleBorderActive),
  grey: family(tokens.colorNeutralForeground3, tokens.colorNeutralBackground3, tokens.colorNeutralStroke1),
};

const entries = Object.entries(FAMILIES) as [PaletteName, ReturnType<typeof family>][];
const byName = <T,>(style: (f: ReturnType<typeof family>) => T) => Object.fromEntries(entries.map(([n, f]) => [n, style(f)])) as Record<PaletteName, T>;
const useText = makeStyles(byName((f) => ({ color: f.fg })));
const useBadge = makeStyles(byName((f) => ({
  color: f.fg, backgroundColor: f.bg, borderTopColor: f.border, borderRightColor: f.border, borderBottomColor: f.border, borderLeftColor: f.border,
})));

/** Class names for a palette colour (none for null): `text(c)` for text, `badge(c, extra)` for a badge. */
export function usePalette() {
  const text = useText();
  const badge = useBadge();
  return {
    text: (c: PaletteName | null | undefined) => (c ? text[c] : undefined),
    badge: (c: PaletteName | null | undefined, extra?: string) => (c ? mergeClasses(badge[c], extra) : extra),
  };
}
