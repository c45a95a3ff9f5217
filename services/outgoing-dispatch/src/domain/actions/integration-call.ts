import { newId } from '@switchyard/ids';
import { USER_AGENT, integrationTimeoutMs } from '../delivery/attempt-delivery.usecase';
import { actionErrors } from '../errors';
import type { Deps } from '../ports';
import { signedHeaders } from '../secrets';
import { integrationSigners } from '../signing/integration-signers';
import { upstreamAnswerError } from './upstream-answer';

/**
 * One call of an interactive integration (an action, a dialog submit, refresh or lookup): the JSON body
 * signed as `IntegrationSigningAlgorithm` says (HMAC with `IntegrationSigningSecret`, or Ed25519) like outgoing webhooks, sent through the SSRF-guarded client
 * with `OutgoingIntegrationRequestsTimeout`. Resolves to the body of a 200 answer; anything else throws
 * what the client of the route must see (upstream-answer.ts).
 */
export async function callIntegration(deps: Deps, url: string, request: unknown, now: number): Promise<string> {
  const body = JSON.stringify(request);
  const result = await deps.client.post({
    url,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': USER_AGENT, ...signedHeaders(newId(), Math.floor(now / 1000), body, integrationSigners(deps.liveConfig.current())) },
    body,
    timeoutMs: integrationTimeoutMs(deps),
  });
  const upstreamError = upstreamAnswerError(result, now);
  if (upstreamError) throw upstreamError;
  if (result.kind !== 'response') throw actionErrors.integration('err=no answer');
  return result.body;
}
