import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ALL_PERMISSIONS,
  canReadSysconsole,
  canWriteSysconsole,
  hasChannelPermission,
  hasPermission,
  hasTeamPermission,
  isKnownRole,
  isSystemAdmin,
  Permissions,
  splitRoles,
} from './index';

test('when roles include system_admin, then every known permission is granted', () => {
  for (const permission of ALL_PERMISSIONS) assert.ok(hasPermission('system_user system_admin', permission), permission);
  assert.ok(isSystemAdmin('system_admin system_user'));
  assert.ok(canReadSysconsole('system_admin'));
  assert.ok(canWriteSysconsole('system_admin'));
});

test('when roles are system_user only, then members and teams work but bots, tokens and admin rights do not', () => {
  const roles = 'system_user';
  assert.ok(hasPermission(roles, Permissions.viewMembers));
  assert.ok(hasPermission(roles, Permissions.createTeam));
  assert.ok(hasPermission(roles, Permissions.joinPublicTeams));
  for (const denied of ['create_bot', 'read_bots', 'manage_system', 'create_user_access_token', 'edit_other_users', 'create_post', 'list_users_without_team']) {
    assert.equal(hasPermission(roles, denied), false, denied);
  }
  assert.equal(canReadSysconsole(roles), false);
  assert.equal(isSystemAdmin(roles), false);
});

test('when system_user_access_token is added, then the three token permissions are granted', () => {
  const roles = 'system_user system_user_access_token';
  for (const p of ['create_user_access_token', 'read_user_access_token', 'revoke_user_access_token']) assert.ok(hasPermission(roles, p), p);
});

test('when a bot has system_post_all or system_post_all_public, then it may post everywhere or in public channels', () => {
  assert.ok(hasPermission('system_user system_post_all', 'create_post'));
  assert.equal(hasPermission('system_user system_post_all', 'create_post_public'), false);
  assert.ok(hasPermission('system_user system_post_all_public', 'create_post_public'));
  assert.equal(hasPermission('system_user system_post_all_public', 'create_post'), false);
});

test('when a check is team-scoped, then system roles or team roles may grant it', () => {
  assert.ok(hasTeamPermission('system_user', 'team_user', 'view_team'));
  assert.equal(hasTeamPermission('system_user', '', 'view_team'), false);
  assert.ok(hasTeamPermission('system_admin', '', 'view_team'));
  assert.ok(hasTeamPermission('system_user', 'team_user team_admin', 'manage_others_incoming_webhooks'));
  assert.equal(hasTeamPermission('system_user', 'team_user', 'manage_own_incoming_webhooks'), false);
  assert.ok(hasChannelPermission('system_user', 'team_user', 'channel_user', 'create_post'));
  assert.equal(hasChannelPermission('system_user', 'team_user', '', 'create_post'), false);
});

test('when roles are empty, unknown or oddly spaced, then nothing is granted and parsing is tolerant', () => {
  assert.equal(hasPermission('', 'view_members'), false);
  assert.equal(hasPermission(undefined, 'view_members'), false);
  assert.equal(hasPermission('made_up_role', 'view_members'), false);
  assert.deepEqual(splitRoles('  system_user   system_admin '), ['system_user', 'system_admin']);
  assert.ok(isKnownRole('team_admin'));
  assert.equal(isKnownRole('toString'), false);
  assert.equal(hasPermission('constructor', 'view_members'), false);
});

test('when custom emoji permissions are checked, then every user may create and delete their own, only admins others\'', () => {
  for (const p of ['create_emojis', 'delete_emojis']) assert.ok(hasPermission('system_user', p), p);
  assert.equal(hasPermission('system_user', 'delete_others_emojis'), false);
  assert.ok(hasPermission('system_admin', 'delete_others_emojis'));
  assert.equal(hasPermission('system_guest', 'create_emojis'), false);
});
