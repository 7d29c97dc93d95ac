import { Activity, useRef, type ReactNode } from 'react';
import { keptWhenLeft } from './keptPages';
import { UNSAFE_LocationContext, useLocation, useNavigationType, useOutlet, type Location, type NavigationType } from 'react-router-dom';

interface Kept { element: ReactNode; location: Location; address: { location: Location; navigationType: NavigationType } }

/**
 * The shell's outlet, keeping the list pages of this session drawn: a page left for another stays mounted but
 * hidden (React's Activity: `display: none`, its effects cleaned up, its state and DOM kept), so coming back shows
 * it at once, scrolled where it was, and its lists ask again quietly (useListData) instead of drawing the whole
 * page anew (scripts/bench/navigation.ts, warm visits). Only `keep` addresses are kept (schema list pages at their
 * menu address, once the page said so: keepWhenLeft; the menu bounds how many); anything else is the plain outlet,
 * unmounted when left.
 * A hidden page sees the address it was left at, not the one now shown.
 */
export function KeptOutlet({ keep }: { keep(pathname: string): boolean }) {
  const outlet = useOutlet();
  const location = useLocation();
  const navigationType = useNavigationType();
  const kept = useRef(new Map<string, Kept>());
  const here = location.pathname;
  const keeping = keep(here);
  // A kept page keeps its element and its address's context value for as long as its address is the same: shown
  // again, and on any render while shown, React then draws nothing of it again (the list asks again once its
  // effects are back, useListData). Its address changed (its list's query): the outlet's fresh element. Pure for a
  // given address, as React may repeat or drop a render.
  if (keeping) {
    const was = kept.current.get(here);
    if (!was || !sameAddress(was.location, location)) kept.current.set(here, { element: outlet, location, address: { location, navigationType } });
  }
  // A page left that did not ask to stay (not a list, or a list's record) is let go: unmounted, as without keeping.
  for (const path of [...kept.current.keys()]) if (path !== here && !keptWhenLeft(path)) kept.current.delete(path);
  return (
    <>
      {[...kept.current].map(([path, k]) => (
        <Activity key={path} mode={path === here ? 'visible' : 'hidden'}>
          <UNSAFE_LocationContext.Provider value={k.address}>{k.element}</UNSAFE_LocationContext.Provider>
        </Activity>
      ))}
      {keeping ? null : outlet}
    </>
  );
}

const sameAddress = (a: Location, b: Location) => a.pathname === b.pathname && a.search === b.search && a.hash === b.hash && a.state === b.state;
