import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** When it arrived (ms). */
  readonly at: number;
}

export type Responder = (request: ReceivedRequest, index: number) => { status?: number; body?: string; headers?: Record<string, string> } | Promise<{ status?: number; body?: string; headers?: Record<string, string> }>;

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  respond(responder: Responder): void;
  close(): Promise<void>;
}

/** An HTTP receiver on a loopback address (127.0.0.1 by default), recording every request. */
export async function startReceiver(host = '127.0.0.1', responder: Responder = () => ({ status: 200, body: '' })): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let current = responder;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      requests.push(request);
      void Promise.resolve(current(request, requests.length - 1)).then((answer) => {
        res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json', ...(answer.headers ?? {}) });
        res.end(answer.body ?? '');
      });
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    requests,
    respond: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
