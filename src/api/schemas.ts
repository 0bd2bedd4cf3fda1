// Loaders of the contract schemas the shell validates with: each a dynamic import, so arktype and the
// schema modules land in a lazily loaded chunk, not the first load.

export const schemas = {
  policyStructure: () => import('../contract/policy.ts').then((module) => module.policyStructureSchema),
  permissionList: () => import('../contract/policy.ts').then((module) => module.permissionListSchema),
  userInfo: () => import('../contract/policy.ts').then((module) => module.userInfoSchema),
  notificationStatus: () => import('../contract/shell-responses.ts').then((module) => module.notificationStatusSchema),
  userSetting: () => import('../contract/shell-responses.ts').then((module) => module.userSettingSchema),
  recordSearch: () => import('../contract/shell-responses.ts').then((module) => module.recordSearchSchema),
};
