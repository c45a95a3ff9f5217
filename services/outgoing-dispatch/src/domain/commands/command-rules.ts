import { isValidId } from '@switchyard/ids';
import { isValidHttpUrl } from '../hooks/hook-rules';
import type { Command } from './command';
import { commandErrors } from './command-errors';

/** The reference's built-in triggers (§2.3), reserved: a custom command cannot take them. */
export const BUILT_IN_TRIGGERS: ReadonlySet<string> = new Set([
  'away', 'code', 'collapse', 'dnd', 'echo', 'expand', 'groupmsg', 'header', 'help', 'invite', 'invite_people', 'join', 'kick', 'remove',
  'leave', 'logout', 'me', 'msg', 'mute', 'offline', 'online', 'open', 'purpose', 'rename', 'search', 'settings', 'shortcuts', 'shrug',
  'marketplace', 'exportlink', 'mobile-logs',
]);

const bytes = (value: string): number => Buffer.byteLength(value);

/** `Command.IsValid` for a command whose id, token and times the server set; the first failure wins, in the reference's order. */
export function assertValidCommand(command: Command): void {
  if (!isValidId(command.creatorId)) throw commandErrors.invalid('user_id');
  if (!isValidId(command.teamId)) throw commandErrors.invalid('team_id');
  const trigger = command.trigger;
  if (bytes(trigger) < 1 || bytes(trigger) > 128 || trigger.startsWith('/') || trigger.includes(' ')) throw commandErrors.invalid('trigger');
  if (command.url === '' || command.url.length > 1024) throw commandErrors.invalid('url');
  if (!isValidHttpUrl(command.url)) throw commandErrors.invalid('url_http');
  if (command.method !== 'P' && command.method !== 'G') throw commandErrors.invalid('method');
  if (bytes(command.displayName) > 64) throw commandErrors.invalid('display_name');
  if (bytes(command.description) > 128) throw commandErrors.invalid('description');
}

/** A built-in trigger, or another live command of the team with that trigger: 400 duplicate_trigger. */
export function assertTriggerFree(trigger: string, teamCommands: readonly Command[], exceptId = ''): void {
  if (BUILT_IN_TRIGGERS.has(trigger) || teamCommands.some((c) => c.id !== exceptId && c.trigger === trigger)) throw commandErrors.duplicateTrigger();
}
