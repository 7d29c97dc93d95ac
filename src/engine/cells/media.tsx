import { makeStyles, tokens } from '@fluentui/react-components';
import { registerCell, type CellProps } from './registry';

/** Image and JSON cells. */
const useStyles = makeStyles({
  image: { height: '28px', maxWidth: '64px', objectFit: 'contain', verticalAlign: 'middle' },
  json: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
});

// Our image routes read the HttpOnly cookie set at login: the session token never goes in an image URL.
function ImageCell({ value }: CellProps) {
  const s = useStyles();
  return typeof value === 'string' && value ? <img className={s.image} src={value} alt="" loading="lazy" /> : null;
}

const jsonText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
function JsonCell({ value }: CellProps) {
  const s = useStyles();
  return value === undefined || value === null ? null : <span className={s.json}>{jsonText(value)}</span>;
}

registerCell('image', { text: (_c, v) => String(v), Component: ImageCell });
registerCell('json', { text: (_c, v) => jsonText(v), Component: JsonCell });
