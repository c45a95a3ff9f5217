import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serverClasses, type RequestPrototypes } from './own-prototypes';

export interface RunningServer {
  readonly server: Server;
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/** Per-process limits of an HTTP listener (slow or abundant clients must not hold the process). */
export interface ListenLimits {
  /** Longest time to receive a whole request, headers and body (node's requestTimeout); 408 after. */
  readonly requestTimeoutMs?: number;
  /** Longest time to receive a request's headers (slowloris); 408 after. */
  readonly headersTimeoutMs?: number;
  /** Connections this process accepts at once; more are closed on accept. */
  readonly maxConnections?: number;
}

export interface ListenOptions extends ListenLimits {
  /**
   * The express app's request/response prototypes (`requestPrototypes(app)`): requests and responses are
   * then created with them, so express need not swap them per request (see serverClasses).
   */
  readonly prototypes?: RequestPrototypes;
}

/** Connections accepted by the kernel and not yet by the process, at most. */
const LISTEN_BACKLOG = 4096;

export const DEFAULT_LISTEN_LIMITS: Required<ListenLimits> = { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, maxConnections: 10_000 };

/** Listens on host:port (0 = ephemeral) with keep-alive tuned for a proxy in front and the limits above; resolves once bound. */
export async function listen(handler: RequestListener, port: number, host = '0.0.0.0', options: ListenOptions = {}): Promise<RunningServer> {
  const { requestTimeoutMs, headersTimeoutMs, maxConnections } = { ...DEFAULT_LISTEN_LIMITS, ...options };
  const headersTimeout = Math.min(headersTimeoutMs, requestTimeoutMs);
  // Node checks the two timeouts every connectionsCheckingInterval (30 s by default, which would let a slow
  // client hold a socket up to 30 s past them): check five times per header timeout instead.
  const connectionsCheckingInterval = Math.max(100, Math.min(30_000, Math.floor(headersTimeout / 5)));
  const classes = (options.prototypes && serverClasses(options.prototypes)) ?? {};
  const server = createServer({ keepAliveTimeout: 65_000, requestTimeout: requestTimeoutMs, headersTimeout, connectionsCheckingInterval, ...classes }, handler);
  server.maxConnections = maxConnections;
  // Every socket, upgraded ones (WebSocket) included: closeAllConnections() only knows HTTP ones, and
  // server.close() waits for all of them.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A burst of connections (thousands of long-polls at once) waits in the kernel's queue instead of being
    // refused: node's default backlog is 511; the kernel caps it at net.core.somaxconn.
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    server,
    port: address.port,
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
}
