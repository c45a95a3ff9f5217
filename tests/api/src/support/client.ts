import assert from 'node:assert/strict';
import { Client4, ClientError } from '@mattermost/client';

/** An unmodified official client pointed at the target, optionally already holding a token. */
export function newClient(url: string, token?: string): Client4 {
  const client = new Client4();
  client.setUrl(url);
  if (token !== undefined) client.setToken(token);
  return client;
}

/**
 * Awaits a client call that must fail, and checks what the official client reports: a ClientError with
 * `status_code` and `server_error_id` (both read from the server's JSON error body).
 */
export async function expectClientError(call: Promise<unknown>, status: number, id: string | RegExp): Promise<ClientError> {
  let caught: unknown;
  try {
    const value = await call;
    assert.fail(`expected a ${status} ${String(id ?? '')} error, got success: ${JSON.stringify(value)?.slice(0, 300)}`);
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error;
    caught = error;
  }
  assert.ok(caught instanceof ClientError, `expected a ClientError, got ${String(caught)}`);
  const where = `expected ${status} ${String(id ?? '')}, got ${String(caught.status_code)} ${String(caught.server_error_id)} (${caught.message})`;
  assert.equal(caught.status_code, status, where);
  assert.equal(typeof caught.server_error_id, 'string', where);
  if (typeof id === 'string') assert.equal(caught.server_error_id, id, where);
  else if (id instanceof RegExp) assert.match(String(caught.server_error_id), id, where);
  return caught;
}
