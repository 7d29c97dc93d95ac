import { createContext, useContext } from 'react';
import type { DataProvider } from './dataProvider';
import { appDataProvider } from './list/listPrefetch';

/** The data provider the renderers use; a test or a hand-written host may supply another. */
export const DataProviderContext = createContext<DataProvider>(appDataProvider);
export const useDataProvider = () => useContext(DataProviderContext);
