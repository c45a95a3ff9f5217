import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually, WAIT_MS } from './eventually';

export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export type Answer = { status?: number; body?: string; headers?: Record<string, string> };

export interface OutgoingReceiver {
  readonly url: string;
  readonly requests: Received[];
  respond(answer: (request: Received) => Answer): void;
  /** Polls (bounded) until a request matches. */
  waitFor(match: (request: Received) => boolean, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
}

/** An outgoing-webhook / action receiver on 127.0.0.1 (the suite only talks to loopback); port 0 picks a free one. */
export async function startOutgoingReceiver(port = 0): Promise<OutgoingReceiver> {
  const requests: Received[] = [];
  let answer: (request: Received) => Answer = () => ({ status: 200, body: '' });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      const a = answer(request);
      res.writeHead(a.status ?? 200, { 'Content-Type': 'application/json', ...(a.headers ?? {}) });
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    respond: (next) => {
      answer = next;
    },
    waitFor: (match, timeoutMs = WAIT_MS) => eventually('a matching request at the receiver', () => requests.find(match), timeoutMs),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
