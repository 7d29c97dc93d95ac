import { createContext, useContext } from 'react';
import { httpDataProvider, type DataProvider } from './dataProvider';

/** The data provider the renderers use; a test or a hand-written host may supply another. */
export const DataProviderContext = createContext<DataProvider>(httpDataProvider);
export const useDataProvider = () => useContext(DataProviderContext);
