import { newId } from '@switchyard/ids';
import { USER_AGENT } from '../delivery/attempt-delivery.usecase';
import type { OutboundRequest } from '../ports';
import { signedHeaders, type Signer } from '../secrets';
import type { Command } from './command';

/**
 * The fields the integration receives (mattermost-wire-2.md §2.1), as form values. `user_mentions` /
 * `channel_mentions` and their `_ids` are parallel lists.
 */
export interface CommandFields {
  readonly channel_id: string;
  readonly channel_name: string;
  readonly command: string;
  readonly response_url: string;
  readonly root_id: string;
  readonly team_domain: string;
  readonly team_id: string;
  readonly text: string;
  readonly token: string;
  readonly trigger_id: string;
  readonly user_id: string;
  readonly user_name: string;
  readonly user_mentions?: readonly string[];
  readonly user_mentions_ids?: readonly string[];
  readonly channel_mentions?: readonly string[];
  readonly channel_mentions_ids?: readonly string[];
}

/** Go's `url.Values.Encode`: keys sorted, repeated keys in order. */
export function encodeFields(fields: CommandFields): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(fields).sort()) {
    const value = fields[key as keyof CommandFields];
    if (value === undefined) continue;
    for (const v of typeof value === 'string' ? [value] : value) params.append(key, v);
  }
  return params.toString();
}

/**
 * The request to the command's URL: `P` posts the form, `G` appends it to the URL's query. Headers: the
 * reference's (`Authorization: Token …` when the token is set, `Accept`, `User-Agent`) plus Standard
 * Webhooks signatures (`IntegrationSigningSecret` / `IntegrationSigningAlgorithm`), over the form (the body, or for GET the appended
 * query), with a fresh `webhook-id` per execution.
 */
export function commandRequest(command: Command, fields: CommandFields, signers: readonly Signer[], nowMs: number, timeoutMs: number): OutboundRequest {
  const form = encodeFields(fields);
  const signed = signedHeaders(newId(), Math.floor(nowMs / 1000), form, signers);
  const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': USER_AGENT, ...signed };
  if (command.token !== '') headers.Authorization = `Token ${command.token}`;
  if (command.method === 'G') {
    const url = new URL(command.url);
    url.search = url.search.length > 1 ? `${url.search.slice(1)}&${form}` : form;
    return { method: 'GET', url: url.toString(), headers, body: '', timeoutMs };
  }
  return { method: 'POST', url: command.url, headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body: form, timeoutMs };
}
