import { commonErrors } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import { hasPermission, hasTeamPermission, Permissions } from '@switchyard/permissions';
import type { InternalPostView, WirePost } from '@switchyard/contracts';
import { actionErrors } from '../errors';
import { callIntegration } from './integration-call';
import type { Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';
import { parseIntegrationJson } from './integration-json';

export interface ActionInput {
  readonly selectedOption?: string;
  readonly cookie?: string;
}

export interface ActionAnswer {
  readonly status: 'OK';
  readonly trigger_id: string;
  readonly goto_location?: string;
}

interface StoredAction {
  readonly id?: unknown;
  readonly type?: unknown;
  readonly data_source?: unknown;
  readonly integration?: { readonly url?: unknown; readonly context?: unknown };
}

const ACTION_ID = /^[A-Za-z0-9_-]+$/;

/** The action of a stored post (`props.attachments[].actions[]`) with that id. */
export function findAction(view: InternalPostView, actionId: string): StoredAction | undefined {
  const attachments = view.post.props.attachments;
  if (!Array.isArray(attachments)) return undefined;
  for (const attachment of attachments as unknown[]) {
    const actions = (attachment as { actions?: unknown } | null)?.actions;
    if (!Array.isArray(actions)) continue;
    const found = (actions as StoredAction[]).find((a) => a !== null && typeof a === 'object' && a.id === actionId);
    if (found) return found;
  }
  return undefined;
}

async function canReadChannel(deps: Deps, actor: Actor, view: InternalPostView): Promise<boolean> {
  if (hasPermission(actor.roles, Permissions.readChannel)) return true;
  const channel = view.channel;
  const channelRoles = await deps.platform.channelRoles(channel.id, actor.userId);
  if (channelRoles !== undefined) return true;
  if (channel.type !== 'O' || channel.team_id === '') return false;
  return hasTeamPermission(actor.roles, await deps.platform.teamRoles(channel.team_id, actor.userId), Permissions.readPublicChannel);
}

const COPIED_PROPS = ['from_webhook', 'override_username', 'override_icon_url'] as const;

/**
 * The reference's ephemeral answer to a click: a `system_ephemeral` post for the clicking user in the
 * post's channel and thread, with the webhook display props of the clicked post.
 */
export function actionEphemeralPost(view: InternalPostView, userId: string, text: string, now: number): WirePost {
  const props: Record<string, unknown> = {};
  for (const key of COPIED_PROPS) if (view.post.props[key] !== undefined) props[key] = view.post.props[key];
  return {
    id: newId(),
    create_at: now,
    update_at: now,
    edit_at: 0,
    delete_at: 0,
    is_pinned: false,
    user_id: userId,
    channel_id: view.channel.id,
    root_id: view.post.root_id !== '' ? view.post.root_id : view.post.id,
    original_id: '',
    message: text,
    type: 'system_ephemeral',
    props,
    hashtags: '',
    file_ids: [],
    pending_post_id: '',
    reply_count: 0,
    last_reply_at: 0,
    participants: null,
  };
}

/**
 * `POST /posts/{post_id}/actions/{action_id}` (mattermost-wire.md §8): the action's integration gets the
 * reference's request (context passed back unchanged, `selected_option` added for menus), signed with
 * `IntegrationSigningSecret`; its `update` replaces the post through posts' internal API.
 */
export async function doPostAction(deps: Deps, actor: Actor, postId: string, actionId: string, input: ActionInput): Promise<ActionAnswer> {
  const view = await deps.platform.post(postId);
  if (!view || view.post.delete_at !== 0 || !(await canReadChannel(deps, actor, view))) throw commonErrors.permissions(actor.userId, Permissions.readChannel);
  const action = ACTION_ID.test(actionId) ? findAction(view, actionId) : undefined;
  const url = action?.integration?.url;
  if (!action || typeof url !== 'string' || url === '') throw actionErrors.actionNotFound();
  const now = deps.clock.now();
  const clientTriggerId = newId();
  const [user] = await deps.platform.users([actor.userId]);
  const storedContext = action.integration?.context;
  const context = storedContext !== null && typeof storedContext === 'object' && !Array.isArray(storedContext) ? { ...(storedContext as Record<string, unknown>) } : undefined;
  const type = typeof action.type === 'string' ? action.type : '';
  const isSelect = type === 'select';
  const request = {
    user_id: actor.userId,
    user_name: user?.username ?? '',
    channel_id: view.channel.id,
    channel_name: view.channel.name,
    team_id: view.channel.team_id,
    team_domain: view.channel.team_name,
    post_id: postId,
    trigger_id: deps.triggerIds.issue(clientTriggerId, actor.userId, now),
    ...(type !== '' ? { type } : {}),
    ...(isSelect && typeof action.data_source === 'string' && action.data_source !== '' ? { data_source: action.data_source } : {}),
    ...(isSelect && input.selectedOption !== undefined ? { context: { ...(context ?? {}), selected_option: input.selectedOption } } : context ? { context } : {}),
  };
  const answerBody = await callIntegration(deps, url, request, now);
  const parsed = parseIntegrationJson(answerBody);
  if (!parsed.ok) throw actionErrors.integration(`err=${parsed.reason}`);
  const response: Record<string, unknown> = parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value) ? (parsed.value as Record<string, unknown>) : {};
  const update = response.update;
  if (update !== null && typeof update === 'object' && !Array.isArray(update)) {
    const u = update as { message?: unknown; props?: unknown };
    const props = u.props !== null && typeof u.props === 'object' && !Array.isArray(u.props) ? (u.props as Record<string, unknown>) : undefined;
    await deps.platform.updatePost(postId, { message: typeof u.message === 'string' ? u.message : '', ...(props ? { props } : {}) });
  }
  if (typeof response.ephemeral_text === 'string' && response.ephemeral_text !== '') {
    await deps.clientEvents
      .ephemeralPost(actor.userId, actionEphemeralPost(view, actor.userId, response.ephemeral_text, now))
      .catch((error: unknown) => deps.logger.warn('ephemeral_text of an action answer not sent', { post_id: postId, action_id: actionId, error: String(error) }));
  }
  const goto = typeof response.goto_location === 'string' && response.goto_location !== '' ? response.goto_location : undefined;
  return { status: 'OK', trigger_id: clientTriggerId, ...(goto ? { goto_location: goto } : {}) };
}
