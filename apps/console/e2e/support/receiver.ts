import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export type Answer = (req: Received) => { status: number; json?: unknown };

/** An integration on loopback: records every request and answers with `answer`; can be stopped and started again on the same port. */
export class Receiver {
  public readonly received: Received[] = [];
  private server: Server | undefined;
  private port = 0;

  public constructor(private readonly answer: Answer) {}

  public get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  public async start(): Promise<void> {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString() };
        this.received.push(received);
        const out = this.answer(received);
        res.writeHead(out.status, { 'Content-Type': 'application/json', Connection: 'close' });
        res.end(out.json === undefined ? '' : JSON.stringify(out.json));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  public async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
