import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RunningServer {
  readonly server: Server;
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on host:port (0 = ephemeral) with keep-alive tuned for a proxy in front; resolves once bound. */
export async function listen(handler: RequestListener, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  const server = createServer({ keepAliveTimeout: 65_000, headersTimeout: 66_000 }, handler);
  // Every socket, upgraded ones (WebSocket) included: closeAllConnections() only knows HTTP ones, and
  // server.close() waits for all of them.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
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
