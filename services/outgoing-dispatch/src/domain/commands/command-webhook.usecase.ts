import type { Deps } from '../ports';
import { applyCommandResponse } from './apply-command-response';
import { canPostIn } from './channel-post-access';
import { commandWebhookErrors, executeErrors } from './command-errors';
import { parseCommandResponse } from './command-response';
import { COMMAND_WEBHOOK_MAX_USES, COMMAND_WEBHOOK_TTL_MS, hashWebhookId } from './command-webhook-ids';

const ID = /^[A-Za-z0-9]{1,64}$/;

/**
 * `POST /hooks/commands/{id}` (mattermost-wire-2.md §2.2): an execution's response_url. The id is the
 * credential (no session): unknown, malformed or older than 30 minutes → 404; the sixth use → 400. The
 * answer is applied as the command's own answer (as the invoking user, in the execution's channel and
 * thread; ephemeral by default). Beyond the reference, the user must still be allowed to post in that
 * channel (removed from a private channel since: the answer is refused).
 */
export async function handleCommandWebhook(deps: Deps, id: string, contentType: string, body: string): Promise<void> {
  const parsed = parseCommandResponse(contentType, body);
  if ('error' in parsed) throw commandWebhookErrors.parse(parsed.error);
  const now = deps.clock.now();
  const since = now - COMMAND_WEBHOOK_TTL_MS;
  const idHash = ID.test(id) ? hashWebhookId(id) : undefined;
  const hook = idHash ? await deps.commandWebhooks.findByHash(idHash) : undefined;
  if (!idHash || !hook || hook.createAt < since) throw commandWebhookErrors.missing();
  const command = await deps.commands.findById(hook.commandId);
  if (!command || command.deleteAt !== 0) throw commandWebhookErrors.commandGone();
  if (!(await deps.commandWebhooks.tryUse(idHash, COMMAND_WEBHOOK_MAX_USES, since))) throw commandWebhookErrors.usedUp();
  const [user] = await deps.platform.users([hook.userId]);
  const channel = await deps.platform.channel(hook.channelId);
  if (!user || user.deleteAt !== 0 || !channel || channel.delete_at !== 0 || !(await canPostIn(deps, { userId: user.id, roles: user.roles }, channel))) {
    throw executeErrors.createPostFailed(command.trigger, 'the invoking user can no longer post in the channel');
  }
  await applyCommandResponse(deps, command, { userId: user.id, roles: user.roles, channelId: channel.id, rootId: hook.rootId, trigger: command.trigger }, parsed.response);
}
