import { makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  logo: { width: '38px', height: '38px', flexShrink: 0 },
  glass: { fill: tokens.colorBrandBackground },
  label: { fill: tokens.colorNeutralForegroundOnBrand, opacity: 0.85 },
  tissue: { fill: tokens.colorPaletteBerryForeground2, opacity: 0.9 },
});

/** The product's mark (a glass slide with its label and a stained section), 38 px as spec §9 sizes the side logo; drawn in the theme's colours. */
export function ProductLogo() {
  const s = useStyles();
  return (
    <svg className={s.logo} viewBox="0 0 38 38" aria-hidden="true" focusable="false">
      <rect className={s.glass} x="1" y="9" width="36" height="20" rx="3" />
      <rect className={s.label} x="4" y="12" width="9" height="14" rx="1.5" />
      <ellipse className={s.tissue} cx="25" cy="19" rx="8" ry="6" />
    </svg>
  );
}
