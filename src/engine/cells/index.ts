/** The cell kinds: importing this registers them all (registry.tsx). One line per file. */
import './text';
import './badge';
import './tags';
import './media';
import './progress';
import './share';

export { Cell, useCellContext, cellKinds, cellText, registerCell, type CellContext, type CellKindDef, type CellProps } from './registry';
