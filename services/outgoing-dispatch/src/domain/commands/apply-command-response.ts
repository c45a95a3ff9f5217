import type { WirePost } from '@switchyard/contracts';
import { commonErrors, isAppError } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import { slackAttachments, slackText } from '../delivery/slack-markup';
import type { Deps } from '../ports';
import { canPostIn } from './channel-post-access';
import type { Command } from './command';
import { executeErrors } from './command-errors';
import type { CommandResponse } from './command-response';

/** Where an answer goes: the invoking user, the execution's channel and thread (response_url: the same). */
export interface AnswerTarget {
  readonly userId: string;
  readonly channelId: string;
  readonly rootId: string;
  /** The user's system roles (for the channel checks of a response's `channel_id`). */
  readonly roles: string;
  /** For the error message. */
  readonly trigger: string;
}

const SERVER_PROPS = ['from_webhook', 'override_username', 'override_icon_url', 'override_icon_emoji', 'webhook_display_name'];

/**
 * `HandleCommandResponse`: the response, then each `extra_responses` entry, as a post by the invoking
 * user (`in_channel`) or an ephemeral message to them (`ephemeral` or `""`, when there is text or
 * attachments); any other type posts nothing. Every entry is tried; if any failed, 500
 * `create_post_failed`. The response is processed in place (Slack markup), as the reference returns it.
 */
export async function applyCommandResponse(deps: Deps, command: Command, target: AnswerTarget, response: CommandResponse): Promise<void> {
  let failure: unknown;
  for (const entry of [response, ...(response.extra_responses ?? [])]) {
    try {
      await applyOne(deps, command, target, entry);
    } catch (error) {
      deps.logger.info('a slash command answer was not posted', { command_id: command.id, error: isAppError(error) ? error.id : String(error) });
      failure = error;
    }
  }
  if (failure !== undefined) throw executeErrors.createPostFailed(target.trigger, isAppError(failure) ? failure.id : '');
}

async function applyOne(deps: Deps, command: Command, target: AnswerTarget, response: CommandResponse): Promise<void> {
  let channelId = target.channelId;
  if (response.channel_id !== '') {
    // A member, as the reference requires, who may also post there now (an archived or read-only channel is refused).
    const other = await deps.platform.channel(response.channel_id);
    const member = other !== undefined && (await deps.platform.channelRoles(other.id, target.userId)) !== undefined;
    if (!other || !member || !(await canPostIn(deps, { userId: target.userId, roles: target.roles }, other))) throw executeErrors.postForbidden();
    channelId = response.channel_id;
  }
  if (!response.skip_slack_parsing) {
    response.text = slackText(response.text);
    if (response.attachments) response.attachments = slackAttachments(response.attachments);
  }
  if (response.type.startsWith('system_')) throw commonErrors.invalidParam('post.type');
  const props = displayProps(deps, command, response);
  const attachments = response.attachments ? response.attachments.filter((a) => a !== null) : undefined;
  if (attachments) props.attachments = attachments;
  const type = attachments ? 'slack_attachment' : response.type;
  const now = deps.clock.now();
  if (response.response_type === 'in_channel') {
    const post = { id: newId(), channel_id: channelId, user_id: target.userId, message: response.text, type, props, root_id: target.rootId, create_at: now };
    await deps.postCommands.createPosts([{ post, source: 'command' }]);
    return;
  }
  if ((response.response_type === '' || response.response_type === 'ephemeral') && (response.text !== '' || response.attachments !== null)) {
    await deps.clientEvents.ephemeralPost(target.userId, ephemeral(target.userId, channelId, target.rootId, response.text, props, now));
  }
}

/** The response's props without server-owned keys, then `from_webhook` and the overrides the settings allow (the command's own win). */
function displayProps(deps: Deps, command: Command, response: CommandResponse): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(response.props ?? {})) if (!SERVER_PROPS.includes(key)) props[key] = value;
  const settings = deps.liveConfig.current().ServiceSettings;
  const username = command.username || response.username;
  if (settings.EnablePostUsernameOverride && username !== '') props.override_username = username;
  const icon = command.iconUrl || response.icon_url;
  if (settings.EnablePostIconOverride && icon !== '') props.override_icon_url = icon;
  props.from_webhook = 'true';
  return props;
}

/** An ephemeral post as the client sees it (`system_ephemeral`, as SendEphemeralPost): never stored, action integrations stripped. */
function ephemeral(userId: string, channelId: string, rootId: string, message: string, props: Record<string, unknown>, now: number): WirePost {
  const shown = { ...props };
  if (Array.isArray(shown.attachments)) shown.attachments = shown.attachments.map(withoutIntegrations);
  return {
    id: newId(), create_at: now, update_at: now, edit_at: 0, delete_at: 0, is_pinned: false, user_id: userId, channel_id: channelId, root_id: rootId, original_id: '',
    message, type: 'system_ephemeral', props: shown, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null,
  };
}

function withoutIntegrations(attachment: unknown): unknown {
  if (attachment === null || typeof attachment !== 'object') return attachment;
  const a = attachment as Record<string, unknown>;
  if (!Array.isArray(a.actions)) return a;
  return { ...a, actions: a.actions.map((action: unknown) => (action !== null && typeof action === 'object' ? { ...(action as Record<string, unknown>), integration: undefined } : action)) };
}
