import { Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, makeStyles, tokens } from '@fluentui/react-components';
import { MoreHorizontal20Regular } from '@fluentui/react-icons';
import type { ActionSchema } from '../../core/pageSchema';
import { inlineCount } from '../../core/rowActionsWidth';

const useStyles = makeStyles({
  root: { display: 'flex', gap: tokens.spacingHorizontalXXS, alignItems: 'center' },
  danger: { color: tokens.colorPaletteRedForeground1 },
});

/**
 * A row's actions: the first few as small buttons, the rest behind a "more" menu. The words come from the page
 * (`label`, `moreLabel`): a translation hook in every row was a measurable part of drawing a list.
 */
export function RowActions({ actions, onRun, label, moreLabel }: {
  actions: ActionSchema[]; onRun(action: ActionSchema): void; label(l: ActionSchema['label']): string; moreLabel: string;
}) {
  const s = useStyles();
  const inline = actions.slice(0, inlineCount(actions.length));
  const rest = actions.slice(inline.length);
  return (
    <span className={s.root}>
      {inline.map((a) => (
        <Button key={a.key} size="small" appearance="subtle" className={a.appearance === 'danger' ? s.danger : undefined} data-action={a.key}
          onClick={(e) => { e.stopPropagation(); onRun(a); }}>
          {label(a.label)}
        </Button>
      ))}
      {rest.length ? (
        <Menu>
          <MenuTrigger disableButtonEnhancement>
            <Button size="small" appearance="subtle" icon={<MoreHorizontal20Regular />} aria-label={moreLabel} />
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              {rest.map((a) => <MenuItem key={a.key} data-action={a.key} className={a.appearance === 'danger' ? s.danger : undefined} onClick={() => onRun(a)}>{label(a.label)}</MenuItem>)}
            </MenuList>
          </MenuPopover>
        </Menu>
      ) : null}
    </span>
  );
}
