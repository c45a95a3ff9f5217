import { request as httpRequest, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** A node `upgrade` listener: the request, the raw client socket and the first bytes after the headers. */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Hands an HTTP upgrade (WebSocket) to a service: in-process (embedded) or proxied over TCP (distributed). */
export interface UpgradeTransport {
  /**
   * `headers` replaces the request's headers on the way to the service (the gateway has removed what the
   * service must not see and added the signed identity). The socket belongs to the service afterwards.
   */
  upgrade(service: string, req: IncomingMessage, socket: Duplex, head: Buffer, headers: Readonly<Record<string, string | string[]>>): void;
}

export function supportsUpgrade(transport: object): transport is UpgradeTransport {
  return typeof (transport as Partial<UpgradeTransport>).upgrade === 'function';
}

/** Answers an upgrade request with a plain HTTP response and closes the socket. */
export function rejectUpgrade(socket: Duplex, status: number, body: string, contentType = 'text/plain; charset=utf-8', extraHeaders: Readonly<Record<string, string>> = {}): void {
  if (socket.destroyed) return;
  const length = Buffer.byteLength(body);
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, 'Connection: close', `Content-Type: ${contentType}`, `Content-Length: ${length}`];
  for (const [name, value] of Object.entries(extraHeaders)) lines.push(`${name}: ${value}`);
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

/** Runs upgrades of registered services in this process (embedded runtime). */
export class InProcessUpgrades implements UpgradeTransport {
  private readonly handlers = new Map<string, UpgradeHandler>();

  public register(service: string, handler: UpgradeHandler): void {
    this.handlers.set(service, handler);
  }

  public upgrade(service: string, req: IncomingMessage, socket: Duplex, head: Buffer, headers: Readonly<Record<string, string | string[]>>): void {
    const handler = this.handlers.get(service);
    if (!handler) {
      rejectUpgrade(socket, 503, 'Service Unavailable');
      return;
    }
    const kept: Record<string, string | string[]> = { ...headers };
    for (const name of ['connection', 'upgrade'] as const) {
      const value = req.headers[name];
      if (value !== undefined) kept[name] = value;
    }
    req.headers = kept;
    handler(req, socket, head);
  }
}

const PROXY_CONNECT_TIMEOUT_MS = 10_000;

/** Connection errors after which nothing reached the replica, so the next one may be tried. */
const NOT_REACHED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Proxies an upgrade to `baseUrls` (distributed runtime; one URL or the replicas of one service, tried in
 * order until one answers: a replica that is down is skipped): the same request line and the given
 * headers go to the service; its `101` (or any other answer) goes back to the client as it came, then
 * bytes flow both ways until either side closes.
 */
export function proxyUpgrade(baseUrls: string | readonly string[], req: IncomingMessage, socket: Duplex, head: Buffer, headers: Readonly<Record<string, string | string[]>>): void {
  const urls = typeof baseUrls === 'string' ? [baseUrls] : baseUrls;
  proxyUpgradeTo(urls, 0, req, socket, head, headers);
}

function proxyUpgradeTo(urls: readonly string[], index: number, req: IncomingMessage, socket: Duplex, head: Buffer, headers: Readonly<Record<string, string | string[]>>): void {
  const baseUrl = urls[index];
  if (baseUrl === undefined || socket.destroyed) {
    rejectUpgrade(socket, 503, 'Service Unavailable');
    return;
  }
  const target = new URL(baseUrl);
  let answered = false;
  const upstream = httpRequest({
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port,
    method: 'GET',
    path: req.url ?? '/',
    headers: { ...headers, connection: 'Upgrade', upgrade: req.headers.upgrade ?? 'websocket' },
    timeout: PROXY_CONNECT_TIMEOUT_MS,
  });
  const onClientGone = (): void => {
    upstream.destroy();
  };
  socket.once('close', onClientGone);
  socket.on('error', () => upstream.destroy());
  upstream.on('timeout', () => upstream.destroy(new Error('upgrade timed out')));
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (answered) return;
    socket.off('close', onClientGone);
    if (NOT_REACHED.has(error.code ?? '') && index + 1 < urls.length && !socket.destroyed) {
      proxyUpgradeTo(urls, index + 1, req, socket, head, headers);
      return;
    }
    rejectUpgrade(socket, 503, 'Service Unavailable');
  });
  upstream.on('response', (res: IncomingMessage) => {
    answered = true;
    // The service refused the upgrade: pass its answer on.
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => rejectUpgrade(socket, res.statusCode ?? 502, Buffer.concat(chunks).toString('utf8'), String(res.headers['content-type'] ?? 'text/plain; charset=utf-8')));
    res.on('error', () => socket.destroy());
  });
  upstream.on('upgrade', (res: IncomingMessage, service: Duplex, serviceHead: Buffer) => {
    answered = true;
    socket.off('close', onClientGone);
    const lines = [`HTTP/1.1 ${res.statusCode ?? 101} ${res.statusMessage ?? 'Switching Protocols'}`];
    for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
    if (socket.destroyed) {
      service.destroy();
      return;
    }
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (serviceHead.length > 0) socket.write(serviceHead);
    if (head.length > 0) service.write(head);
    service.on('error', () => socket.destroy());
    socket.on('error', () => service.destroy());
    service.on('close', () => socket.destroy());
    socket.on('close', () => service.destroy());
    service.pipe(socket);
    socket.pipe(service);
  });
  upstream.end();
}
