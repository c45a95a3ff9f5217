import { WebSocketClient } from '@mattermost/client';
import WebSocket from 'ws';
import { WAIT_MS } from './eventually';
import { websocketUrl, type Frame } from './ws';

// Node 20 has no global WebSocket (browsers do): the official client reads WebSocket.OPEN from it.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

/**
 * The unmodified official `WebSocketClient`, recording every event its listeners get. `challenge`: the
 * client is given the token and authenticates with `authentication_challenge`; `cookie`: the socket
 * carries the MMAUTHTOKEN cookie, as a browser's does, and the client gets no token (the web app's way).
 */
export class OfficialSocket {
  public readonly client: WebSocketClient;
  public readonly events: Frame[] = [];
  public missed = 0;
  public reconnects = 0;
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private readonly taken = new Set<Frame>();

  public constructor(baseUrl: string, token: string, auth: 'challenge' | 'cookie' = 'challenge') {
    const headers: Record<string, string> = auth === 'cookie' ? { cookie: `MMAUTHTOKEN=${token}` } : {};
    this.client = new WebSocketClient({
      newWebSocketFn: (url: string) => new WebSocket(url, { headers }) as unknown as globalThis.WebSocket,
      clientPingInterval: 600_000,
      minWebSocketRetryTime: 200,
      reconnectJitterRange: 100,
    });
    this.client.addMessageListener((message) => {
      const frame = message as unknown as Frame;
      this.events.push(frame);
      for (const waiter of [...this.waiters]) {
        if (!this.taken.has(frame) && waiter.match(frame)) {
          this.taken.add(frame);
          this.waiters = this.waiters.filter((w) => w !== waiter);
          waiter.resolve(frame);
        }
      }
    });
    this.client.addMissedMessageListener(() => (this.missed += 1));
    this.client.addReconnectListener(() => (this.reconnects += 1));
    this.client.initialize(websocketUrl(baseUrl), auth === 'challenge' ? token : undefined);
  }

  public event(name: string, match: (f: Frame) => boolean = () => true, timeoutMs = WAIT_MS): Promise<Frame> {
    const ready = this.events.find((f) => !this.taken.has(f) && f.event === name && match(f));
    if (ready) {
      this.taken.add(ready);
      return Promise.resolve(ready);
    }
    return new Promise((resolve, reject) => {
      const full = (f: Frame): boolean => f.event === name && match(f);
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.match !== full);
        reject(new Error(`no ${name} within ${timeoutMs} ms; got ${JSON.stringify(this.events.map((f) => f.event))}`));
      }, timeoutMs);
      this.waiters.push({
        match: full,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  /** A request through the client's own sendMessage, resolved with its reply. */
  public request(action: string, data: Record<string, unknown>): Promise<Frame> {
    return new Promise((resolve) => this.client.sendMessage(action, data, (reply: unknown) => resolve(reply as Frame)));
  }

  public close(): void {
    this.client.close();
  }
}
