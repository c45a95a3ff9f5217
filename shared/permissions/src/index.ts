export {
  Permissions,
  ALL_PERMISSIONS,
  SYSCONSOLE_AREAS,
  SYSCONSOLE_READ_PERMISSIONS,
  SYSCONSOLE_WRITE_PERMISSIONS,
  type KnownPermission,
} from './permissions';
export { Roles, DEFAULT_ROLE_PERMISSIONS, ASSIGNABLE_SYSTEM_ROLES, type RoleName } from './roles';
export {
  splitRoles,
  isKnownRole,
  hasPermission,
  hasAnyPermission,
  hasTeamPermission,
  hasChannelPermission,
  isSystemAdmin,
  canReadSysconsole,
  canWriteSysconsole,
} from './check';
