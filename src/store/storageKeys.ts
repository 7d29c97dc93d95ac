/** Browser storage keys of spec §3, in one place. */
export const LOCAL = {
  theme: 'theme',
  lang: 'lang',
  hospital: 'HB',
  username: 'UN',
  locked: 'lockScreenDialogVisible',
  lockedPath: 'lockScreenPath',
  fontSize: 'font-size',
  dark: 'dark',
  commitHash: 'COMMITHASH',
} as const;

export const SESSION = {
  showAllData: 'showAllData',
  token: 'access_token',
  userId: 'user_id',
  loginTime: 'login_time',
  identification: 'identification',
  permission: 'permission',
} as const;
