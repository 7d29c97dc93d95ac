import { createDarkTheme, createLightTheme, type BrandVariants } from '@fluentui/react-components';

/** A clinical teal-blue brand ramp: calm on long reading days, distinct from the red and gold of status marks. */
const brand: BrandVariants = {
  10: '#020305', 20: '#0F1A24', 30: '#122B3D', 40: '#133852', 50: '#134668', 60: '#12547F', 70: '#0F6396', 80: '#0B72AE',
  90: '#2A80BA', 100: '#448EC3', 110: '#5B9CCB', 120: '#71AAD4', 130: '#86B8DC', 140: '#9CC6E5', 150: '#B2D4ED', 160: '#C8E2F5',
};

export const lightTheme = createLightTheme(brand);
export const darkTheme = { ...createDarkTheme(brand), colorBrandForeground1: brand[110], colorBrandForeground2: brand[120] };
