import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the receiver saw it, with the process that opened its TCP connection. */
export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** When the request was complete (ms epoch). */
  readonly at: number;
  /** Name of the process owning the client socket (see `owners`), or `unknown`. */
  readonly by: string;
  /** The status the receiver answered with. */
  readonly status: number;
}

export interface ReceiverOptions {
  /** The processes a connection may come from: name → pid (read when a connection arrives). */
  readonly owners: () => ReadonlyMap<string, number | undefined>;
  /** Answer for one request (status code), default 200. */
  readonly answer?: (path: string) => number;
  /** Delay before answering (ms), so that attempts are in flight when a process dies. */
  readonly delayMs?: number;
}

export interface Receiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Requests whose headers arrived but whose body has not ended yet (not in `requests` yet). */
  inFlight(): number;
  setAnswer(answer: (path: string) => number): void;
  close(): Promise<void>;
}

/**
 * The inode of the TCP socket whose local end is 127.0.0.1:`localPort` and remote end 127.0.0.1:`remotePort`
 * (the client's side of a loopback connection), from /proc/net/tcp.
 */
function clientSocketInode(localPort: number, remotePort: number): string | undefined {
  const local = `0100007F:${localPort.toString(16).toUpperCase().padStart(4, '0')}`;
  const remote = `0100007F:${remotePort.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields[1] === local && fields[2] === remote && fields[9] !== '0') return fields[9];
  }
  return undefined;
}

/** Which of the candidate processes holds the socket inode (its /proc/<pid>/fd has `socket:[inode]`). */
function ownerOf(inode: string, owners: ReadonlyMap<string, number | undefined>): string {
  const target = `socket:[${inode}]`;
  for (const [name, pid] of owners) {
    if (pid === undefined) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // the process is gone
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return name;
      } catch {
        // the fd closed meanwhile
      }
    }
  }
  return 'unknown';
}

/**
 * An outgoing-webhook receiver on 127.0.0.1 that records every request and attributes each TCP connection
 * to the process that opened it (Linux /proc: the client socket's inode, then the process whose fd table
 * holds it). The attribution happens when the connection is accepted, while the client end is open, and
 * needs nothing from the sender: no header, no test-only behaviour.
 */
export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const owner = new WeakMap<Socket, string>();
  let answer = options.answer ?? (() => 200);
  let port = 0;
  let inFlight = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    inFlight += 1;
    let counted = true;
    const done = (): void => {
      if (counted) inFlight -= 1;
      counted = false;
    };
    req.on('close', done);
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      done();
      const status = answer(req.url ?? '');
      requests.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), by: ownerOfSocket(req.socket), status });
      const send = (): void => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(status === 200 ? '{}' : '{"error":"receiver down"}');
      };
      if (options.delayMs) setTimeout(send, options.delayMs);
      else send();
    });
  });
  /**
   * The socket's owner, looked up when the connection is accepted and again at a later request while it is
   * still unknown: a sender that connects before the caller has registered its pid in `owners` (a
   * dispatcher delivering while it starts) is attributed from its next request on the kept-alive socket.
   */
  const ownerOfSocket = (socket: Socket): string => {
    const known = owner.get(socket);
    if (known !== undefined && known !== 'unknown') return known;
    const inode = socket.remotePort !== undefined ? clientSocketInode(socket.remotePort, port) : undefined;
    const found = inode === undefined ? 'unknown' : ownerOf(inode, options.owners());
    owner.set(socket, found);
    return found;
  };
  server.on('connection', (socket: Socket) => {
    ownerOfSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inFlight: () => inFlight,
    setAnswer: (next) => {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
