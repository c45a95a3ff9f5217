/**
 * A bot on Switchyard's WebSocket API, written the way one is written for Mattermost: the official
 * `@mattermost/client` (Client4 for REST, WebSocketClient for events). It answers every `ping` it can see
 * with `pong` in the thread of that post.
 *
 *   SWITCHYARD_URL=http://127.0.0.1:8065 BOT_TOKEN=<bot access token> [CURSOR_FILE=ping-bot.cursor] npm run example:ping-bot
 *
 * The bot sees the channels it is a member of (and its direct messages). It prints one line when it is
 * connected and one per answer. With CURSOR_FILE it keeps the cursor of the last event it handled there and
 * connects with it after a restart: Switchyard replays what it missed meanwhile (docs/event-stream.md), so a
 * ping sent while the bot was down is still answered, once.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Client4, WebSocketClient } from '@mattermost/client';
import WebSocket from 'ws';

export interface PingBotOptions {
  readonly url: string;
  readonly token: string;
  readonly log?: (line: string) => void;
  /** Where the cursor of the last event handled is kept across restarts (none: start from now each time). */
  readonly cursorFile?: string;
}

export interface PingBot {
  /** Resolves once the first `hello` arrived (the bot is listening). */
  readonly ready: Promise<void>;
  stop(): void;
}

interface PostedPost {
  readonly id: string;
  readonly user_id: string;
  readonly channel_id: string;
  readonly root_id: string;
  readonly message: string;
}

// Node 20 has no global WebSocket; the official client reads WebSocket.OPEN from it, as in a browser.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

export function startPingBot(options: PingBotOptions): PingBot {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const rest = new Client4();
  rest.setUrl(options.url);
  rest.setToken(options.token);
  // The last event's cursor (an extension field of every event): a connection made with it replays what
  // came after it, so a restarted bot misses nothing.
  let cursor = options.cursorFile && existsSync(options.cursorFile) ? readFileSync(options.cursorFile, 'utf8').trim() : '';
  const withCursor = (url: string): string => (cursor === '' ? url : `${url}${url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`);
  // The token goes in the upgrade's Authorization header, so a reconnect resumes the same connection
  // (missed events replayed) instead of starting over.
  const events = new WebSocketClient({
    newWebSocketFn: (url: string) => new WebSocket(withCursor(url), { headers: { Authorization: `Bearer ${options.token}` } }) as unknown as globalThis.WebSocket,
  });
  const handled = (message: { cursor?: unknown }): void => {
    if (typeof message.cursor !== 'string' || !options.cursorFile) return;
    cursor = message.cursor;
    writeFileSync(options.cursorFile, cursor);
  };
  let me: { id: string; username: string } | undefined;
  let markReady: () => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    fail = reject;
  });

  events.addMessageListener((message) => {
    if (message.event === 'hello') {
      const data = message.data as { connection_id?: string; resume?: string };
      log(`ping-bot: connected as @${me?.username ?? '?'} (connection ${String(data.connection_id)}, resume ${String(data.resume ?? 'none')})`);
      // An expired or invalid cursor replayed nothing: from now on, as without one.
      if (data.resume !== 'complete') handled(message as { cursor?: unknown });
      markReady();
      return;
    }
    answer(message);
    handled(message as { cursor?: unknown });
  });

  function answer(message: { event: string; data: unknown }): void {
    if (message.event !== 'posted' || !me) return;
    const post = JSON.parse(String((message.data as { post?: string }).post)) as PostedPost;
    if (post.user_id === me.id || post.message.trim().toLowerCase() !== 'ping') return;
    const rootId = post.root_id !== '' ? post.root_id : post.id;
    rest.createPost({ channel_id: post.channel_id, root_id: rootId, message: 'pong' } as Parameters<Client4['createPost']>[0]).then(
      () => log(`ping-bot: pong in thread ${rootId}`),
      (error: unknown) => log(`ping-bot: could not answer: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  rest.getMe().then(
    (user) => {
      me = { id: user.id, username: user.username };
      events.initialize(`${options.url.replace(/^http/, 'ws')}/api/v4/websocket`);
    },
    (error: unknown) => {
      log(`ping-bot: the token was refused: ${error instanceof Error ? error.message : String(error)}`);
      fail(error);
    },
  );
  return { ready, stop: () => events.close() };
}

if (require.main === module) {
  const url = process.env.SWITCHYARD_URL ?? 'http://127.0.0.1:8065';
  const token = process.env.BOT_TOKEN;
  if (!token) {
    process.stderr.write('ping-bot: set BOT_TOKEN to the access token of a bot (switchyardctl token create <bot>)\n');
    process.exit(2);
  }
  const cursorFile = process.env.CURSOR_FILE;
  const bot = startPingBot({ url, token, ...(cursorFile ? { cursorFile } : {}) });
  bot.ready.catch(() => process.exit(1));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      bot.stop();
      process.exit(0);
    });
  }
}
