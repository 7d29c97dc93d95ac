import { makeStyles } from '@fluentui/react-components';

export const useFieldStyles = makeStyles({
  full: { width: '100%', minWidth: '0' },
  pair: { display: 'flex', gap: '4px', alignItems: 'center', width: '100%' },
});

/** The schema's placeholder, if it gives one (the label stands beside or above the input). */
export const placeholderOf = (props?: Record<string, unknown>) => props?.placeholder as string | undefined;
