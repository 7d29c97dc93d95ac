import type { Generated } from 'kysely';

/** Hospitals, users, roles, permissions and menus. */

export interface HospitalTable {
  id: Generated<number>;
  code: string;
  name: string;
  en_name: string;
  logo: string | null;
  /** The hospital area whose storage and job queue its new slides go to (null: the installation's defaults). */
  area_id: Generated<number | null>;
  created_at: string;
}

/** A hospital area (issue 29): its own storage location and job queue(s). */
export interface HospitalAreaTable {
  id: Generated<number>;
  code: string;
  name: string;
  ip: string | null;
  /** A local directory (absolute path) or `s3://bucket/prefix`. */
  storage_url: string;
  /** Comma-separated queue names; the first takes the area's slide jobs. */
  queue_names: string;
  created_at: string;
  updated_at: string;
}

export interface UserTable {
  id: Generated<number>;
  name: string;
  realname: string;
  password_hash: string;
  email: string | null;
  phone: string | null;
  /** 1 enabled, 0 disabled by an administrator. */
  status: number;
  /** 1 locked by an administrator (distinct from the temporary login lock). */
  locked: number;
  expires_at: string | null;
  failed_attempts: number;
  login_locked_until: string | null;
  extra: string;
  created_at: string;
  updated_at: string;
}

export interface RoleTable {
  id: Generated<number>;
  name: string;
  /** The role's name in English; the UI shows it when the language is English (`name` when empty). */
  en_name: string | null;
  identification: string;
  description: string | null;
  /** JSON array of permission codes (spec §3: the role's extra JSON). */
  extra: string;
  created_at: string;
}

export interface UserRoleTable { user_id: number; role_id: number }

export interface UserHospitalTable { user_id: number; hospital_id: number }

/** The subspecialty directories a user may work in (spec §6); a user with none works in all. */
export interface UserSubspecialtyTable { user_id: number; subspecialty_id: number }

/** A hospital's dictionary of subspecialty directories (Breast, Gastrointestinal, …). */
export interface SubspecialtyTable {
  id: Generated<number>;
  hospital_id: number;
  name: string;
  en_name: string | null;
  code: string | null;
  rank: number;
  enabled: number;
  created_at: string;
  updated_at: string;
}

export interface RoleMenuTable { role_id: number; menu_id: number }

export interface PermissionTable {
  id: Generated<number>;
  code: string;
  description: string;
  en_description: string;
  module: string;
  api_path: string | null;
}

export interface MenuTable {
  id: Generated<number>;
  parent_id: number | null;
  uri: string;
  alias: string;
  route_name: string;
  name: string;
  en_name: string;
  is_show: string;
  icon: string | null;
  external_link: number;
  active_menu: string | null;
  rank: number;
}
