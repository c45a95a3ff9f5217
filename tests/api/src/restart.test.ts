import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { eventually } from './support/eventually';
import { createBot, ensureAdmin, issueToken, patchConfig } from './support/fixtures';
import { assertJson, raw } from './support/http';
import { channelPosts, createIncomingHook, sendToHook } from './support/incoming-hooks';
import { startOutgoingReceiver } from './support/outgoing-receiver';
import { newChannel, newTeam, postIn } from './support/posts-fixtures';

interface Running {
  readonly url: string;
  stop(): Promise<void>;
}

async function start(dataDir: string): Promise<Running> {
  const { startEmbedded } = await import('@switchyard/embedded');
  const running = await startEmbedded({ port: 0, host: '127.0.0.1', logLevel: 'error', dataDir });
  return { url: running.url.replace(/\/+$/, ''), stop: () => running.stop() };
}

/** A loopback port nobody listens on (yet): the receiver that is down, started later on the same port. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface DeliveryJson {
  id: string;
  post_id: string;
  status: string;
  attempts: number;
}

async function deliveries(url: string, token: string, hookId: string): Promise<DeliveryJson[]> {
  const res = await raw(url, 'GET', `/api/v4/hooks/outgoing/${hookId}/deliveries`, { token });
  assertJson(res, 200);
  return res.json as DeliveryJson[];
}

describe('embedded runtime: everything survives a restart', { skip: process.env.SWITCHYARD_URL ? 'needs its own embedded runtime' : false, timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-restart-'));
  let running: Running | undefined;
  after(async () => {
    await running?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when the runtime stops and starts on the same data directory, then users, bot token, hooks, posts and a pending delivery are there', async () => {
    running = await start(dataDir);
    const first = running.url;
    const admin = await ensureAdmin(first);
    const retries = Array.from({ length: 9 }, () => 1);
    await patchConfig(admin.client, {
      ServiceSettings: { EnableBotAccountCreation: true, AllowedUntrustedInternalConnections: '127.0.0.1' },
      DeliverySettings: { RetryBackoffSeconds: retries, JitterPercent: 0 },
    });
    const bot = await createBot(admin.client);
    const botToken = await issueToken(admin.client, bot.user_id);
    const team = await newTeam(admin);
    const channel = await newChannel(admin, team);
    const incoming = await createIncomingHook(first, admin.token, { channel_id: channel.id, display_name: 'CI' });
    assert.equal((await sendToHook(first, incoming.id, { text: 'from the hook' })).status, 200);
    await postIn(admin, channel.id, 'from the api');
    const port = await freePort();
    const hookRes = await raw(first, 'POST', '/api/v4/hooks/outgoing', {
      token: admin.token,
      body: { team_id: team.id, channel_id: channel.id, trigger_words: ['deliverme'], callback_urls: [`http://127.0.0.1:${port}/cb`], content_type: 'application/json' },
    });
    assertJson(hookRes, 201);
    const outgoing = hookRes.json as { id: string };
    const trigger = await postIn(admin, channel.id, 'deliverme please');
    // The receiver is down: the delivery fails and waits for its retry.
    const failed = await eventually('a failed attempt', async () => (await deliveries(first, admin.token, outgoing.id)).find((d) => d.post_id === trigger.id && d.attempts >= 1));
    assert.notEqual(failed.status, 'delivered');

    await running.stop();
    running = undefined;
    running = await start(dataDir);
    const url = running.url;

    // The admin's password, session-less: a fresh login works; the bot's token from before still works.
    const again = await ensureAdmin(url);
    assert.equal(again.createdHere, false);
    assert.equal(again.user.id, admin.user.id);
    const me = await raw(url, 'GET', '/api/v4/users/me', { token: botToken.token });
    assertJson(me, 200);
    assert.equal((me.json as { id: string }).id, bot.user_id);
    const sameSession = await raw(url, 'GET', '/api/v4/users/me', { token: admin.token });
    assert.equal(sameSession.status, 200, 'the admin session from before the restart is still valid');
    assertJson(await raw(url, 'GET', `/api/v4/hooks/incoming/${incoming.id}`, { token: again.token }), 200);
    assert.equal((await sendToHook(url, incoming.id, { text: 'after the restart' })).status, 200);
    const messages = (await channelPosts(url, again.token, channel.id)).map((p) => p.message);
    for (const m of ['from the hook', 'from the api', 'deliverme please', 'after the restart']) assert.ok(messages.includes(m), `${m} in ${JSON.stringify(messages)}`);
    const teamRes = await raw(url, 'GET', `/api/v4/teams/${team.id}`, { token: again.token });
    assertJson(teamRes, 200);
    const log = await deliveries(url, again.token, outgoing.id);
    assert.equal(log.find((d) => d.id === failed.id)?.status === 'delivered', false);

    // The receiver comes back on the same port: the pending delivery arrives, with the same webhook-id.
    const receiver = await startOutgoingReceiver(port);
    try {
      const request = await receiver.waitFor((r) => r.body.includes(trigger.id), 20_000);
      assert.equal(request.headers['webhook-id'], failed.id);
      const delivered = await eventually('the delivery marked delivered', async () => (await deliveries(url, again.token, outgoing.id)).find((d) => d.id === failed.id && d.status === 'delivered'));
      assert.equal(delivered.id, failed.id);
      const forPost = receiver.requests.filter((r) => r.body.includes(trigger.id));
      assert.deepEqual([...new Set(forPost.map((r) => r.headers['webhook-id']))], [failed.id], 'every request for the post carries the one webhook-id');
    } finally {
      await receiver.close();
    }
  });
});
