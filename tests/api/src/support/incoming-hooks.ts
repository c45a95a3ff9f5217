import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Post } from '@mattermost/types/posts';
import { eventually, WAIT_MS } from './eventually';
import { raw, type RawResponse } from './http';

/** A created incoming hook as the API returns it. */
export interface IncomingHookJson {
  readonly id: string;
  readonly channel_id: string;
  readonly team_id: string;
  readonly user_id: string;
  readonly display_name: string;
  readonly channel_locked: boolean;
  readonly reaction_notifications?: boolean;
  readonly [key: string]: unknown;
}

export async function createIncomingHook(url: string, token: string, body: Record<string, unknown>): Promise<IncomingHookJson> {
  const res = await raw(url, 'POST', '/api/v4/hooks/incoming', { token, body });
  assert.equal(res.status, 201, `create hook: ${res.status} ${res.text.slice(0, 300)}`);
  return res.json as IncomingHookJson;
}

/** `POST /hooks/{key}` with a JSON body (or a raw body and content type). */
export function sendToHook(url: string, key: string, body: unknown, options: { query?: string; headers?: Record<string, string>; rawBody?: string } = {}): Promise<RawResponse> {
  return raw(url, 'POST', `/hooks/${key}${options.query ?? ''}`, {
    ...(options.rawBody !== undefined ? { rawBody: options.rawBody } : { body }),
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

/** The channel's posts, newest first. */
export async function channelPosts(url: string, token: string, channelId: string): Promise<Post[]> {
  const res = await raw(url, 'GET', `/api/v4/channels/${channelId}/posts?per_page=200`, { token });
  assert.equal(res.status, 200, `channel posts: ${res.status} ${res.text.slice(0, 300)}`);
  const list = res.json as { order: string[]; posts: Record<string, Post> };
  return list.order.map((id) => list.posts[id]).filter((p): p is Post => p !== undefined);
}

/**
 * The posts with these ids, read once, in the given order: with `IncomingWebhookAckMode=stored` (the
 * default) a post is readable as soon as `POST /hooks/{key}` answered, so nothing waits or polls here.
 */
export async function readPosts(url: string, token: string, channelId: string, ids: readonly string[]): Promise<Post[]> {
  const byId = new Map((await channelPosts(url, token, channelId)).map((p) => [p.id, p]));
  const missing = ids.filter((id) => !byId.has(id));
  assert.deepEqual(missing, [], `posts ${missing.join(',')} not readable in ${channelId} right after the hook answered`);
  return ids.map((id) => byId.get(id) as Post);
}

/** The newest post of the channel matching the predicate, read once (see `readPosts`). */
export async function readPost(url: string, token: string, channelId: string, match: (post: Post) => boolean): Promise<Post> {
  const found = (await channelPosts(url, token, channelId)).find(match);
  assert.ok(found, `no matching post readable in ${channelId} right after the hook answered`);
  return found;
}

/** Polls (bounded) until every id is readable in the channel; returns those posts in the given order. */
export function waitForPosts(url: string, token: string, channelId: string, ids: readonly string[], timeoutMs = WAIT_MS): Promise<Post[]> {
  return eventually(`posts ${ids.join(',')} readable in ${channelId}`, async () => {
    const byId = new Map((await channelPosts(url, token, channelId)).map((p) => [p.id, p]));
    return ids.every((id) => byId.has(id)) ? ids.map((id) => byId.get(id) as Post) : undefined;
  }, timeoutMs);
}

/** Polls (bounded) for the newest post in a channel matching the predicate. */
export function waitForPost(url: string, token: string, channelId: string, match: (post: Post) => boolean, timeoutMs = WAIT_MS): Promise<Post> {
  return eventually(`a matching post in ${channelId}`, async () => (await channelPosts(url, token, channelId)).find(match), timeoutMs);
}

export interface SenderFixture {
  readonly name: string;
  readonly sender: string;
  readonly contentType: string;
  readonly body?: unknown;
  readonly form?: { payload: unknown };
  readonly expect: {
    readonly type: string;
    readonly message: string;
    readonly attachmentTitle?: string;
    readonly attachmentTextIncludes?: string;
    readonly attachmentPretext?: string;
    readonly fieldValues?: readonly string[];
    readonly ts?: unknown;
  };
}

/** The payloads of tests/api/fixtures/incoming, in the shapes common senders emit. */
export function senderFixtures(): SenderFixture[] {
  const dir = join(__dirname, '..', '..', 'fixtures', 'incoming');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f.replace(/\.json$/, ''), ...(JSON.parse(readFileSync(join(dir, f), 'utf8')) as Omit<SenderFixture, 'name'>) }));
}

/** The request a fixture describes: body text and content type. */
export function fixtureRequest(fixture: SenderFixture): { rawBody: string; contentType: string } {
  if (fixture.contentType === 'application/x-www-form-urlencoded') {
    return { rawBody: new URLSearchParams({ payload: JSON.stringify(fixture.form?.payload) }).toString(), contentType: fixture.contentType };
  }
  return { rawBody: JSON.stringify(fixture.body), contentType: fixture.contentType };
}
