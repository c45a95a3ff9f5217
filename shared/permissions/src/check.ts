import { DEFAULT_ROLE_PERMISSIONS, Roles, type RoleName } from './roles';
import { SYSCONSOLE_READ_PERMISSIONS, SYSCONSOLE_WRITE_PERMISSIONS } from './permissions';

const SETS = new Map<string, ReadonlySet<string>>(
  Object.entries(DEFAULT_ROLE_PERMISSIONS).map(([role, permissions]) => [role, new Set(permissions)]),
);

/** Splits a space-separated role string (`"system_admin system_user"`) into names. */
export function splitRoles(roles: string | undefined | null): string[] {
  return typeof roles === 'string' ? roles.split(/\s+/).filter((r) => r !== '') : [];
}

export function isKnownRole(role: string): role is RoleName {
  return SETS.has(role);
}

/** Whether any of the space-separated roles grants the permission. Unknown roles grant nothing. */
export function hasPermission(roles: string | undefined | null, permission: string): boolean {
  for (const role of splitRoles(roles)) if (SETS.get(role)?.has(permission)) return true;
  return false;
}

/** Whether the roles grant at least one of the permissions. */
export function hasAnyPermission(roles: string | undefined | null, permissions: readonly string[]): boolean {
  return permissions.some((p) => hasPermission(roles, p));
}

/**
 * A team-scoped check as the reference does it: the system roles first (a system admin may do anything
 * in every team), then the caller's roles in that team (empty when not a member).
 */
export function hasTeamPermission(systemRoles: string | undefined | null, teamRoles: string | undefined | null, permission: string): boolean {
  return hasPermission(systemRoles, permission) || hasPermission(teamRoles, permission);
}

/** A channel-scoped check: system roles, then team roles, then channel roles. */
export function hasChannelPermission(
  systemRoles: string | undefined | null,
  teamRoles: string | undefined | null,
  channelRoles: string | undefined | null,
  permission: string,
): boolean {
  return hasTeamPermission(systemRoles, teamRoles, permission) || hasPermission(channelRoles, permission);
}

export function isSystemAdmin(roles: string | undefined | null): boolean {
  return splitRoles(roles).includes(Roles.systemAdmin);
}

/** Any `sysconsole_read_*` permission (what `GET /config` needs). */
export function canReadSysconsole(roles: string | undefined | null): boolean {
  return hasAnyPermission(roles, SYSCONSOLE_READ_PERMISSIONS);
}

/** Any `sysconsole_write_*` permission (what `PUT /config` needs). */
export function canWriteSysconsole(roles: string | undefined | null): boolean {
  return hasAnyPermission(roles, SYSCONSOLE_WRITE_PERMISSIONS);
}
