import { commonErrors } from '@switchyard/errors';
import { isValidId, newId } from '@switchyard/ids';
import { hasPermission, Permissions } from '@switchyard/permissions';
import { integrationTimeoutMs } from '../delivery/attempt-delivery.usecase';
import type { Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';
import type { Signer } from '../secrets';
import { integrationSigners } from '../signing/integration-signers';
import { applyCommandResponse } from './apply-command-response';
import { canPostIn } from './channel-post-access';
import type { Command } from './command';
import { requireCommandsEnabled } from './command-access';
import { executeErrors } from './command-errors';
import { commandRequest, type CommandFields } from './command-request';
import { parseCommandResponse, type CommandResponse } from './command-response';
import { COMMAND_WEBHOOK_TTL_MS, hashWebhookId } from './command-webhook-ids';
import { mentionFields } from './mentions';

export interface ExecuteInput {
  readonly command: string;
  readonly channelId: string;
  readonly teamId: string;
  readonly rootId: string;
}

/** Trigger (lower-cased, without `/`) and the text after the first whitespace, verbatim. */
export function splitCommand(command: string): { trigger: string; text: string } {
  const space = /\s/u.exec(command);
  const head = space ? command.slice(0, space.index) : command;
  const text = space ? command.slice(space.index + space[0].length) : '';
  return { trigger: head.toLowerCase().replace(/^\//, ''), text };
}

/**
 * `POST /commands/execute` (mattermost-wire-2.md §2.1): in any channel the user may post in (public,
 * private, direct and group included), the team's custom command with that trigger is called once,
 * synchronously, with the reference's fields; its answer is applied (posts, ephemeral messages) and
 * returned. No retry (ADR 0008): a failure is answered at once with the reference's error.
 */
export async function executeCommand(deps: Deps, actor: Actor, input: ExecuteInput): Promise<CommandResponse> {
  if (input.command.length <= 1 || !input.command.startsWith('/') || !isValidId(input.channelId)) throw executeErrors.start();
  const channel = await deps.platform.channel(input.channelId);
  if (!channel || !(await canPostIn(deps, actor, channel))) throw commonErrors.permissions(actor.userId, Permissions.createPost);
  if (channel.delete_at !== 0) throw executeErrors.deletedChannel();
  let teamId = channel.team_id;
  if (channel.type === 'D' || channel.type === 'G') {
    // The body names the team whose commands run: the caller must belong to it (or post everywhere).
    teamId = input.teamId;
    const member = isValidId(teamId) && (await deps.platform.teamRoles(teamId, actor.userId)) !== '';
    if (!member && !hasPermission(actor.roles, Permissions.createPost)) throw commonErrors.permissions(actor.userId, Permissions.createPost);
  }
  const { trigger, text } = splitCommand(input.command);
  requireCommandsEnabled(deps);
  const team = await deps.platform.team(teamId);
  if (!team || team.delete_at !== 0) throw executeErrors.teamNotFound();
  const command = (await deps.commands.listByTeam(team.id)).find((c) => c.trigger === trigger);
  if (!command) throw executeErrors.notFound(trigger);
  const [user] = await deps.platform.users([actor.userId]);
  const settings = deps.liveConfig.current().ServiceSettings;
  const siteUrl = settings.SiteURL.replace(/\/+$/, '');
  if (siteUrl === '') throw executeErrors.siteUrlRequired();
  const now = deps.clock.now();
  const clientTriggerId = newId();
  const responseUrl = `${siteUrl}/hooks/commands/${await newResponseUrlId(deps, command, actor.userId, channel.id, input.rootId, now)}`;
  const fields: CommandFields = {
    channel_id: channel.id,
    channel_name: channel.name,
    command: `/${trigger}`,
    response_url: responseUrl,
    root_id: input.rootId,
    team_domain: team.name,
    team_id: command.teamId,
    text,
    token: command.token,
    trigger_id: deps.triggerIds.issue(clientTriggerId, actor.userId, now),
    user_id: actor.userId,
    user_name: user?.username ?? '',
    ...(await mentionFields(deps, text, team.id)),
  };
  const response = await callIntegration(deps, command, fields, integrationSigners(deps.liveConfig.current()), now);
  await applyCommandResponse(deps, command, { userId: actor.userId, roles: actor.roles, channelId: channel.id, rootId: input.rootId, trigger }, response);
  return { ...response, trigger_id: clientTriggerId };
}

/** The response_url id (26 random characters); only its hash is stored. Expired ones are swept on the way. */
async function newResponseUrlId(deps: Deps, command: Command, userId: string, channelId: string, rootId: string, now: number): Promise<string> {
  const id = newId();
  await deps.commandWebhooks.insert({ idHash: hashWebhookId(id), createAt: now, commandId: command.id, userId, channelId, rootId, useCount: 0 });
  void deps.commandWebhooks.deleteCreatedBefore(now - COMMAND_WEBHOOK_TTL_MS).catch((error: unknown) => deps.logger.warn('expired response_urls not swept', { error: String(error) }));
  return id;
}

async function callIntegration(deps: Deps, command: Command, fields: CommandFields, signers: readonly Signer[], now: number): Promise<CommandResponse> {
  const result = await deps.client.post(commandRequest(command, fields, signers, now, integrationTimeoutMs(deps)));
  if (result.kind === 'failure') {
    logFailure(deps, command, result.message);
    throw executeErrors.failed(command.trigger, result.message);
  }
  if (result.status !== 200) {
    logFailure(deps, command, `status=${result.status}`);
    throw executeErrors.failedResp(command.trigger, `${result.status} ${result.statusText ?? ''}`.trim(), result.body);
  }
  const parsed = parseCommandResponse(result.contentType ?? '', result.body);
  if ('error' in parsed) {
    logFailure(deps, command, parsed.error);
    throw executeErrors.failed(command.trigger, parsed.error);
  }
  return parsed.response;
}

/** Failed calls are logged with the command id, URL origin and reason; never the token or the response_url. */
function logFailure(deps: Deps, command: Command, reason: string): void {
  let origin = 'invalid-url';
  try {
    origin = new URL(command.url).origin;
  } catch {
    // keep the placeholder
  }
  deps.logger.warn('slash command call failed', { command_id: command.id, origin, reason });
}
