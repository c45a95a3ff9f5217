import { WebSocketClient } from '@mattermost/client';
import WebSocket from 'ws';

// Node 20 has no global WebSocket: the official client reads WebSocket.OPEN from it.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

export type Frame = Record<string, unknown> & { event?: string; seq?: number; data?: Record<string, unknown> };

export function websocketUrl(base: string, query = ''): string {
  return `${base.replace(/^http/, 'ws')}/api/v4/websocket${query === '' ? '' : `?${query}`}`;
}

/** The `fanout`-style marker of a posted event's post message, or undefined. */
export function postedMessage(frame: Frame): string | undefined {
  if (frame.event !== 'posted' || typeof frame.data?.post !== 'string') return undefined;
  return String((JSON.parse(frame.data.post) as { message?: unknown }).message);
}

/** One socket's life: its hello, its events in order, how it ended. */
export interface SocketLife {
  readonly hello: Frame;
  readonly events: Frame[];
  closeCode?: number;
}

/**
 * A raw `ws` client that reconnects as the official clients do: on close, after `retryMs`, with the last
 * `connection_id` and the next expected `sequence_number` in the query. Every socket's life is kept.
 */
export class ReconnectingSocket {
  public readonly lives: SocketLife[] = [];
  private stopped = false;
  private ws: WebSocket | undefined;

  /**
   * `resumeWith`: `'sequence'` reconnects as the official clients do; `'cursor'` with the cursor of the last
   * event received (event cursors: replayed from the stream on any replica, then live).
   */
  public constructor(
    private readonly base: string,
    private readonly token: string,
    private readonly retryMs = 200,
    private readonly resumeWith: 'sequence' | 'cursor' = 'sequence',
  ) {
    this.open('');
  }

  public get current(): SocketLife | undefined {
    return this.lives.at(-1);
  }

  /** Every message of every posted event received, over all lives. */
  public messages(): string[] {
    return this.lives.flatMap((l) => l.events.map(postedMessage).filter((m): m is string => m !== undefined));
  }

  public stop(): void {
    this.stopped = true;
    this.ws?.terminate();
  }

  private open(query: string): void {
    const ws = new WebSocket(websocketUrl(this.base, query), { headers: { authorization: `Bearer ${this.token}` } });
    this.ws = ws;
    let life: SocketLife | undefined;
    ws.on('message', (data: WebSocket.RawData) => {
      const frame = JSON.parse(String(data)) as Frame;
      if (frame.event === 'hello') {
        life = { hello: frame, events: [] };
        this.lives.push(life);
        return;
      }
      if (typeof frame.event === 'string') life?.events.push(frame);
    });
    ws.on('error', () => undefined);
    ws.on('close', (code: number) => {
      if (life) life.closeCode = code;
      if (this.stopped) return;
      const last = this.current;
      const cursor = this.resumeWith === 'cursor' ? [...this.lives].reverse().map((l) => l.events.at(-1)?.cursor ?? l.hello.cursor).find((c) => typeof c === 'string') : undefined;
      const next = !last ? '' : typeof cursor === 'string' ? `cursor=${encodeURIComponent(cursor)}` : `connection_id=${String(last.hello.data?.connection_id)}&sequence_number=${(last.events.at(-1)?.seq ?? 0) + 1}`;
      setTimeout(() => this.open(next), this.retryMs).unref();
    });
  }
}

/** The unmodified official client (authentication_challenge, its own reconnects), recording what it sees. */
export class OfficialClient {
  public readonly client: WebSocketClient;
  public readonly events: Frame[] = [];
  public missed = 0;
  public reconnects = 0;
  public closes = 0;

  public constructor(base: string, token: string) {
    this.client = new WebSocketClient({
      newWebSocketFn: (url: string) => new WebSocket(url) as unknown as globalThis.WebSocket,
      clientPingInterval: 600_000,
      minWebSocketRetryTime: 200,
      reconnectJitterRange: 100,
    });
    this.client.addMessageListener((message) => this.events.push(message as unknown as Frame));
    this.client.addMissedMessageListener(() => (this.missed += 1));
    this.client.addReconnectListener(() => (this.reconnects += 1));
    this.client.addCloseListener(() => (this.closes += 1));
    this.client.initialize(websocketUrl(base), token);
  }

  public hellos(): Frame[] {
    return this.events.filter((f) => f.event === 'hello');
  }

  public messages(): string[] {
    return this.events.map(postedMessage).filter((m): m is string => m !== undefined);
  }

  public close(): void {
    this.client.close();
  }
}
