import {
  Button, Divider, Input, makeStyles, Popover, PopoverSurface, PopoverTrigger, Slider, Text, ToggleButton, Toolbar, Tooltip, tokens,
} from '@fluentui/react-components';
import {
  ArrowRedo20Regular, ArrowRotateClockwise20Regular, ArrowRotateCounterclockwise20Regular, ArrowUndo20Regular, ArrowUpRight20Regular,
  Camera20Regular, Circle20Regular, Color20Regular, Cursor20Regular, FlipHorizontal20Regular, FullScreenMaximize20Regular, Grid20Regular,
  HandLeft20Regular, InkStroke20Regular, Target20Regular, Line20Regular, Link20Regular, Location20Regular, Pentagon20Regular, QuestionCircle20Regular,
  RectangleLandscape20Regular, Ruler20Regular, TextT20Regular,
} from '@fluentui/react-icons';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { NEUTRAL_COLOUR, COLOUR_RANGE, type ColourAdjust } from '../core/colourAdjust';
import { MAGNIFICATIONS } from '../core/viewerScale';
import type { Tool } from './useDrawingTool';

const useStyles = makeStyles({
  bar: { flexWrap: 'wrap', gap: '2px', padding: '4px 8px', borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, backgroundColor: tokens.colorNeutralBackground1 },
  mag: { minWidth: '40px' },
  angle: { width: '76px' },
  grid: { width: '84px' },
  colour: { display: 'grid', gridTemplateColumns: 'auto 200px 40px', alignItems: 'center', columnGap: '8px' },
  swatch: { width: '32px', height: '28px', padding: 0, border: `1px solid ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusSmall, background: 'none' },
});

const TOOL_ICONS: Record<Tool, ReactElement> = {
  pan: <HandLeft20Regular />, select: <Cursor20Regular />, rectangle: <RectangleLandscape20Regular />, ellipse: <Circle20Regular />,
  polygon: <Pentagon20Regular />, freehand: <InkStroke20Regular />, polyline: <Line20Regular />, arrow: <ArrowUpRight20Regular />,
  ruler: <Ruler20Regular />, point: <Location20Regular />, text: <TextT20Regular />,
};
/** /outer/view and /h5/view show annotations but draw none: the pan tool only. */
const DRAWING: Tool[] = ['select', 'rectangle', 'ellipse', 'polygon', 'freehand', 'polyline', 'arrow', 'ruler', 'point', 'text'];

export interface ToolbarProps {
  readOnly: boolean;
  tool: Tool;
  onTool(t: Tool): void;
  color: string;
  onColor(c: string): void;
  onMagnification(m: number | 'fit'): void;
  rotation: number;
  onRotation(deg: number): void;
  flipped: boolean;
  onFlip(): void;
  canUndo: boolean;
  canRedo: boolean;
  onUndo(): void;
  onRedo(): void;
  gridUm: number | null;
  onGrid(um: number | null): void;
  colour: ColourAdjust;
  onColour(c: ColourAdjust): void;
  split: 1 | 2 | 4;
  onSplit(n: 1 | 2 | 4): void;
  linked: boolean;
  onLinked(on: boolean): void;
  onScreenshot(): void;
  onFullScreen(): void;
  onHelp(): void;
  /** The focus heat map is shown (issue 16). */
  focus?: boolean;
  onFocus?(): void;
}

const DEFAULT_GRID_UM = 100;

/** The viewer's commands: magnification, rotation and flip, drawing tools, grid, colour, split screen. */
export function ViewerToolbar(p: ToolbarProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const tip = (label: string, el: ReactElement) => <Tooltip content={label} relationship="label" withArrow>{el}</Tooltip>;
  const colourRow = (key: keyof ColourAdjust) => (
    <>
      <Text>{t(`viewer.colour.${key}`)}</Text>
      <Slider data-testid={`colour-${key}`} min={COLOUR_RANGE.min * 100} max={COLOUR_RANGE.max * 100} step={5} value={Math.round(p.colour[key] * 100)}
        onChange={(_, d) => p.onColour({ ...p.colour, [key]: d.value / 100 })} />
      <Text>{p.colour[key].toFixed(2)}</Text>
    </>
  );

  return (
    <Toolbar className={s.bar} size="small" data-testid="viewer-toolbar">
      {MAGNIFICATIONS.map((m) => <Button key={m} className={s.mag} size="small" appearance="subtle" data-testid={`mag-${m}`} onClick={() => p.onMagnification(m)}>{`${m}×`}</Button>)}
      <Button size="small" appearance="subtle" data-testid="mag-fit" onClick={() => p.onMagnification('fit')}>{t('viewer.fit')}</Button>
      <Divider vertical />
      {tip(t('viewer.rotateLeft'), <Button size="small" appearance="subtle" icon={<ArrowRotateCounterclockwise20Regular />} onClick={() => p.onRotation(p.rotation - 90)} />)}
      <Input className={s.angle} size="small" type="number" data-testid="rotation" aria-label={t('viewer.rotation')} contentAfter="°" value={String(Math.round(p.rotation))}
        onChange={(_, d) => { const v = Number(d.value); if (Number.isFinite(v)) p.onRotation(v); }} />
      {tip(t('viewer.rotateRight'), <Button size="small" appearance="subtle" icon={<ArrowRotateClockwise20Regular />} onClick={() => p.onRotation(p.rotation + 90)} />)}
      {tip(t('viewer.flip'), <ToggleButton size="small" appearance="subtle" data-testid="flip" checked={p.flipped} icon={<FlipHorizontal20Regular />} onClick={p.onFlip} />)}
      <Divider vertical />
      {(['pan', ...(p.readOnly ? [] : DRAWING)] as Tool[]).map((tool) => tip(t(`viewer.tool.${tool}`),
        <ToggleButton key={tool} size="small" appearance="subtle" data-testid={`tool-${tool}`} checked={p.tool === tool} icon={TOOL_ICONS[tool]} onClick={() => p.onTool(tool)} />))}
      {!p.readOnly && (
        <>
          {tip(t('viewer.annotation.color'), <input type="color" className={s.swatch} data-testid="draw-color" value={p.color} onChange={(e) => p.onColor(e.target.value)} />)}
          {tip(t('viewer.undo'), <Button size="small" appearance="subtle" data-testid="undo" disabled={!p.canUndo} icon={<ArrowUndo20Regular />} onClick={p.onUndo} />)}
          {tip(t('viewer.redo'), <Button size="small" appearance="subtle" data-testid="redo" disabled={!p.canRedo} icon={<ArrowRedo20Regular />} onClick={p.onRedo} />)}
        </>
      )}
      <Divider vertical />
      {tip(t('viewer.grid'), <ToggleButton size="small" appearance="subtle" data-testid="grid-toggle" checked={p.gridUm !== null} icon={<Grid20Regular />} onClick={() => p.onGrid(p.gridUm === null ? DEFAULT_GRID_UM : null)} />)}
      {p.gridUm !== null && (
        <Input className={s.grid} size="small" type="number" data-testid="grid-size" aria-label={t('viewer.gridSize')} contentAfter="µm" value={String(p.gridUm)}
          onChange={(_, d) => { const v = Number(d.value); if (v > 0 && v <= 100_000) p.onGrid(v); }} />
      )}
      {p.onFocus && tip(t('viewer.focus.toggle'), <ToggleButton size="small" appearance="subtle" data-testid="focus-toggle" checked={!!p.focus} icon={<Target20Regular />} onClick={p.onFocus} />)}
      <Popover withArrow>
        <PopoverTrigger disableButtonEnhancement>
          {tip(t('viewer.colour.title'), <Button size="small" appearance="subtle" data-testid="colour-open" icon={<Color20Regular />} />)}
        </PopoverTrigger>
        <PopoverSurface>
          <div className={s.colour}>
            {colourRow('brightness')}
            {colourRow('contrast')}
            {colourRow('gamma')}
            {colourRow('saturation')}
          </div>
          <Button size="small" data-testid="colour-reset" onClick={() => p.onColour(NEUTRAL_COLOUR)}>{t('viewer.colour.reset')}</Button>
        </PopoverSurface>
      </Popover>
      <Divider vertical />
      {([1, 2, 4] as const).map((n) => (
        <ToggleButton key={n} size="small" appearance="subtle" data-testid={`split-${n}`} checked={p.split === n} onClick={() => p.onSplit(n)}>{t('viewer.split', { count: n })}</ToggleButton>
      ))}
      {p.split > 1 && tip(t('viewer.link'), <ToggleButton size="small" appearance="subtle" data-testid="link-views" checked={p.linked} icon={<Link20Regular />} onClick={() => p.onLinked(!p.linked)} />)}
      <Divider vertical />
      {tip(t('viewer.screenshot'), <Button size="small" appearance="subtle" data-testid="screenshot" icon={<Camera20Regular />} onClick={p.onScreenshot} />)}
      {tip(t('viewer.fullScreen'), <Button size="small" appearance="subtle" data-testid="full-screen" icon={<FullScreenMaximize20Regular />} onClick={p.onFullScreen} />)}
      {tip(t('viewer.help.title'), <Button size="small" appearance="subtle" data-testid="help" icon={<QuestionCircle20Regular />} onClick={p.onHelp} />)}
    </Toolbar>
  );
}
