import { badRequest, commonErrors } from '@switchyard/errors';
import { callIntegration } from '../actions/integration-call';
import { parseIntegrationJson } from '../actions/integration-json';
import type { Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';
import { dialogTeamOf } from './dialog-access';
import { dialogErrors } from './dialog-errors';

export interface LookupDialogInput {
  readonly url: string;
  readonly callbackId: string;
  readonly state: string;
  readonly channelId: string;
  readonly submission: Readonly<Record<string, unknown>> | null;
}

export interface LookupItem {
  readonly text: string;
  readonly value: string;
}

/** Options relayed per lookup at most (a select is not a data export). */
export const MAX_LOOKUP_ITEMS = 1000;

const decodeError = (detailed: string) =>
  badRequest('app.lookup_interactive_dialog.decode_json_error', 'Encountered an error decoding JSON response from interactive dialog lookup.', { detailedError: detailed });

/** `{"items": [...]}` as the integration answered it, each item `{text, value}` (strings); empty body → `{"items": null}`. */
function readLookupAnswer(body: string): { items: LookupItem[] | null } {
  const parsed = parseIntegrationJson(body);
  if (!parsed.ok) throw decodeError(parsed.reason);
  if (parsed.value === undefined) return { items: null };
  const raw = parsed.value;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw decodeError('json: the response is not an object');
  const items = (raw as { items?: unknown }).items;
  if (items === undefined || items === null) return { items: null };
  if (!Array.isArray(items)) throw decodeError('json: "items" must be an array');
  return {
    items: items.slice(0, MAX_LOOKUP_ITEMS).map((item: unknown, index) => {
      const { text, value } = (item ?? {}) as { text?: unknown; value?: unknown };
      if ((text !== undefined && typeof text !== 'string') || (value !== undefined && typeof value !== 'string')) throw decodeError(`json: "items[${index}]" text and value must be strings`);
      return { text: text ?? '', value: value ?? '' };
    }),
  };
}

/**
 * `POST /actions/dialogs/lookup` (11.0): the options of a dynamic select. The integration gets the
 * request with `type: "dialog_lookup"` and the caller's `user_id`, signed like every integration call.
 * Switchyard's rule, as for submits: the URL must be the `data_source_url` of a dynamic select of a dialog
 * open for this caller (same callback id and state), so a client cannot make the server call anywhere else.
 */
export async function lookupDialog(deps: Deps, actor: Actor, input: LookupDialogInput): Promise<{ items: LookupItem[] | null }> {
  if (input.url === '') throw commonErrors.invalidBodyParam('url');
  const teamId = await dialogTeamOf(deps, actor, input.channelId);
  const now = deps.clock.now();
  const open = await deps.dialogs.findOpen({ userId: actor.userId, url: undefined, callbackId: input.callbackId, state: input.state }, now);
  if (!open || !open.lookupUrls.includes(input.url)) throw dialogErrors.notOpen(actor.userId);
  const answer = await callIntegration(
    deps,
    input.url,
    { type: 'dialog_lookup', callback_id: input.callbackId, state: input.state, user_id: actor.userId, channel_id: input.channelId, team_id: teamId, submission: input.submission ?? {} },
    now,
  );
  return readLookupAnswer(answer);
}
