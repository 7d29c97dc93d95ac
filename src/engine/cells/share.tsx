import { shareText } from '../../core/shareText';
import { registerCell } from './registry';

/** A share of 0–1 (a slide's tissue out of focus) drawn as a percentage (src/core/shareText.ts). */
registerCell('share', { text: (_c, v, context) => shareText(v, context.lang) });
