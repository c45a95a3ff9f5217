import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import type { AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { newChannel, newTeam, postIn, teamBot, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';
import { parsed, TestSocket } from './support/ws';

const ROOT = resolve(__dirname, '../../..');

/** `npm run example:ping-bot`, the one command of examples/ping-bot; resolves once it printed that it is connected. */
function startBot(url: string, token: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; output: string[] }> {
  // Its own process group: stopping it ends npm and the node process npm started.
  const child = spawn('npm', ['run', '--silent', 'example:ping-bot'], { cwd: ROOT, env: { ...process.env, SWITCHYARD_URL: url, BOT_TOKEN: token, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const output: string[] = [];
  return new Promise((resolveStarted, reject) => {
    const timer = setTimeout(() => reject(new Error(`ping-bot did not connect: ${output.join('')}`)), 60_000);
    const onData = (chunk: Buffer): void => {
      output.push(chunk.toString());
      if (output.join('').includes('ping-bot: connected as')) {
        clearTimeout(timer);
        resolveStarted({ child, output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`ping-bot exited (${String(code)}): ${output.join('')}`));
    });
  });
}

describe('examples/ping-bot: a bot on the WebSocket API', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bot: Actor;
  let running: { child: ChildProcess; output: string[] } | undefined;
  let socket: TestSocket | undefined;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'alice');
    bot = await teamBot(target.url, admin, team);
    running = await startBot(target.url, bot.token);
  });
  const stopBot = async (): Promise<void> => {
    const child = running?.child;
    if (child?.pid !== undefined && child.exitCode === null) {
      const closed = new Promise((done) => child.once('close', done));
      process.kill(-child.pid, 'SIGTERM');
      await closed;
    }
    running = undefined;
  };
  after(async () => {
    socket?.close();
    await stopBot();
    await target?.stop();
  });

  it('when someone says ping in a channel the bot is in, then the bot answers pong in the thread of that post', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bot.id, channel.id);
    socket = await TestSocket.open(target.url, { token: alice.token });
    await socket.event('hello');
    const ping = await postIn(alice, channel.id, 'ping');
    const pong = await socket.event('posted', (f) => parsed(f, 'post').root_id === ping.id, 30_000);
    const answer = parsed(pong, 'post');
    assert.equal(answer.message, 'pong');
    assert.equal(answer.user_id, bot.id);
    assert.equal(answer.channel_id, channel.id);

    // A ping inside a thread is answered in that same thread.
    const reply = await postIn(alice, channel.id, 'ping', { root_id: ping.id });
    const second = await socket.event('posted', (f) => parsed(f, 'post').user_id === bot.id && parsed(f, 'post').id !== answer.id, 30_000);
    assert.equal(parsed(second, 'post').root_id, ping.id);
    assert.ok(reply.id);
  });

  it('when the bot is restarted with its cursor file, then a ping said while it was down is answered, once', async () => {
    await stopBot();
    const cursorFile = join(mkdtempSync(join(tmpdir(), 'ping-bot-')), 'cursor');
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bot.id, channel.id);
    running = await startBot(target.url, bot.token, { CURSOR_FILE: cursorFile });
    await stopBot();
    assert.notEqual(readFileSync(cursorFile, 'utf8'), '', 'the cursor of the hello was kept');
    const watcher = await TestSocket.open(target.url, { token: alice.token });
    try {
      await watcher.event('hello');
      const missed = await postIn(alice, channel.id, 'ping');
      await watcher.event('posted', (f) => parsed(f, 'post').id === missed.id);
      running = await startBot(target.url, bot.token, { CURSOR_FILE: cursorFile });
      assert.match(running.output.join(''), /resume complete/);
      const pong = await watcher.event('posted', (f) => parsed(f, 'post').root_id === missed.id, 30_000);
      assert.equal(parsed(pong, 'post').user_id, bot.id);
      // Another ping, answered live: by then a second answer to the missed one would have come first.
      const live = await postIn(alice, channel.id, 'ping');
      await watcher.event('posted', (f) => parsed(f, 'post').root_id === live.id, 30_000);
      assert.equal(watcher.events().filter((f) => f.event === 'posted' && parsed(f, 'post').root_id === missed.id).length, 1);
    } finally {
      watcher.close();
    }
  });

  it('when ping is said in a channel the bot is not in, then it does not answer', async () => {
    const elsewhere = await newChannel(alice, team);
    const watcher = await TestSocket.open(target.url, { token: alice.token });
    try {
      await watcher.event('hello');
      const ping = await postIn(alice, elsewhere.id, 'ping');
      await watcher.event('posted', (f) => parsed(f, 'post').id === ping.id);
      // The bot would answer within its own round trip; a marker post in a channel it is in shows its answers keep flowing.
      const shared = await newChannel(alice, team);
      await alice.client.addToChannel(bot.id, shared.id);
      const marker = await postIn(alice, shared.id, 'ping');
      await watcher.event('posted', (f) => parsed(f, 'post').root_id === marker.id, 30_000);
      assert.equal(watcher.events().some((f) => f.event === 'posted' && parsed(f, 'post').root_id === ping.id), false);
    } finally {
      watcher.close();
    }
  });
});
