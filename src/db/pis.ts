import Dexie, { type Table } from 'dexie';
import { PIS_DB_VERSION } from '../core/constants';

export interface ErrorInfo {
  id?: number;
  time: string;
  user: { id: number | null; realname: string | null };
  error: string;
  page: string;
}

/** The browser database of spec §3: 'pis', version 16, with its tables and keys. */
export class PisDatabase extends Dexie {
  search!: Table;
  table_menu!: Table;
  sample_cache!: Table;
  report_cache!: Table;
  label!: Table;
  recent_case!: Table;
  'report-template'!: Table;
  passageway!: Table;
  print_machine!: Table;
  ca_sign!: Table;
  table_collapse!: Table;
  list_search_cache!: Table;
  custom_search_cache!: Table;
  local_cache!: Table;
  error_info!: Table<ErrorInfo, number>;

  constructor() {
    super('pis');
    this.version(PIS_DB_VERSION).stores({
      search: 'name',
      table_menu: 'id',
      sample_cache: 'timestamp, &id',
      report_cache: 'timestamp, &id',
      label: 'id',
      recent_case: 'id, user_id',
      'report-template': 'name',
      passageway: 'id',
      print_machine: 'id',
      ca_sign: 'id',
      table_collapse: 'id',
      list_search_cache: 'id',
      custom_search_cache: 'name, user_id',
      local_cache: 'id',
      error_info: '++id, time',
    });
  }
}

export const pis = new PisDatabase();
