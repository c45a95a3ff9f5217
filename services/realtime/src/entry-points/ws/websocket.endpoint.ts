import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { verifyIdentity, type Keys, type UpgradeHandler } from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import { handleFrame, type ActionDeps } from '../../domain/actions/action-router';
import type { Connection, ConnectionSession, SocketPort } from '../../domain/connection';
import type { Hub } from '../../domain/hub';
import type { Clock, RealtimeMetrics } from '../../domain/ports';
import { SocketWriter } from './socket-writer';

/** The header the gateway adds to the upgrade it hands over (see the gateway's websocket-upgrade.ts); when the session ends is in the signed identity. */
export const SERVER_VERSION_HEADER = 'x-switchyard-server-version';

export interface WebSocketTimers {
  /** Server ping frames (the reference: 60 s). */
  readonly pingIntervalMs: number;
  /** A socket without a pong for this long is dropped (the reference's read deadline: 100 s). */
  readonly readDeadlineMs: number;
  /** An unauthenticated socket is closed after this (the reference: about 5 s). */
  readonly authTimeoutMs: number;
  /** How often away connections past the reconnect window are dropped and expired sessions closed. */
  readonly sweepIntervalMs: number;
  /** Largest client frame (the reference: 8 KiB); larger closes the socket. */
  readonly maxFrameBytes: number;
}

export interface WebSocketEndpointDeps {
  readonly hub: Hub;
  readonly actions: ActionDeps;
  readonly secret: Keys;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly timers: WebSocketTimers;
  readonly defaultServerVersion: string;
  readonly metrics?: RealtimeMetrics;
  /** Frames to one socket within this many ms go out in one write (0: within one event-loop turn). */
  readonly coalesceMs?: number;
}

interface Live {
  readonly conn: Connection;
  readonly port: SocketPort;
  lastPong: number;
  frames: Promise<void>;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * The WebSocket side of realtime on the `ws` library: upgrades (identity from the gateway's signed
 * headers, or none), reconnect parameters, client frames in order per socket, server pings with a read
 * deadline extended only by pongs, the unauthenticated grace period, and periodic sweeps.
 */
export class WebSocketEndpoint {
  private readonly wss: WebSocketServer;
  private readonly live = new Map<WebSocket, Live>();
  private readonly writer: SocketWriter;
  private timers: NodeJS.Timeout[] = [];

  public constructor(private readonly deps: WebSocketEndpointDeps) {
    this.writer = new SocketWriter(deps.coalesceMs ?? 0);
    this.wss = new WebSocketServer({ noServer: true, maxPayload: deps.timers.maxFrameBytes, perMessageDeflate: false, clientTracking: false });
  }

  public get sockets(): number {
    return this.live.size;
  }

  /** Bytes written to sockets and not yet taken by the kernel, over every socket of this replica. */
  public get bufferedBytes(): number {
    let bytes = 0;
    for (const ws of this.live.keys()) bytes += ws.bufferedAmount;
    return bytes;
  }

  public readonly upgrade: UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://realtime.invalid');
    const connectionId = url.searchParams.get('connection_id') ?? '';
    const sequence = url.searchParams.get('sequence_number');
    // The reference closes the socket right after the upgrade for a malformed reconnect.
    const malformed = connectionId !== '' && (connectionId.length !== 26 || sequence === null || !/^\d{1,15}$/.test(sequence));
    const session = this.sessionOf(req);
    const serverVersion = header(req, SERVER_VERSION_HEADER) ?? this.deps.defaultServerVersion;
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (malformed) {
        ws.close(1008, 'bad reconnect parameters');
        return;
      }
      const cursor = url.searchParams.get('cursor') ?? undefined;
      this.accept(ws, socket, { connectionId, sequenceNumber: sequence === null ? 0 : Number(sequence), serverVersion, ...(session ? { session } : {}), ...(cursor ? { cursor } : {}) });
    });
  };

  public start(): void {
    if (this.timers.length > 0) return;
    const { pingIntervalMs, sweepIntervalMs } = this.deps.timers;
    this.timers = [setInterval(() => this.pingAll(), pingIntervalMs), setInterval(() => this.sweep(), sweepIntervalMs)];
    for (const timer of this.timers) timer.unref();
  }

  /** Closes every socket (1001 going away): clients reconnect to another replica. */
  public async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.writer.flush();
    const closing = [...this.live.keys()].map(
      (ws) =>
        new Promise<void>((resolve) => {
          const force = setTimeout(() => {
            ws.terminate();
            resolve();
          }, 1_000);
          force.unref();
          ws.once('close', () => {
            clearTimeout(force);
            resolve();
          });
          ws.close(1001, 'server shutting down');
        }),
    );
    await Promise.all(closing);
    this.wss.close();
  }

  private sessionOf(req: IncomingMessage): ConnectionSession | undefined {
    // Signed by the gateway for this very upgrade request (GET and its target) moments ago.
    const identity = verifyIdentity({ method: req.method ?? 'GET', target: req.url ?? '/', headers: req.headers }, this.deps.secret, this.deps.clock.now());
    if (!identity) return undefined;
    // When the session ends comes inside the signed identity, never from a header a caller could set.
    const expires = identity.sessionExpiresAt ?? 0;
    return {
      userId: identity.userId,
      sessionId: identity.sessionId,
      roles: identity.roles,
      isBot: identity.isBot,
      expiresAt: Number.isFinite(expires) && expires > 0 ? expires : 0,
      ...(identity.tokenId === undefined ? {} : { tokenId: identity.tokenId }),
    };
  }

  private accept(ws: WebSocket, raw: Duplex, request: Parameters<Hub['open']>[1] & { serverVersion: string }): void {
    // Frames are built here and written to the TCP socket directly (no permessage-deflate is negotiated,
    // so `ws` keeps no framing state of its own); its close and ping frames go after what is waiting.
    const port = this.writer.outbox(raw, {
      open: () => ws.readyState === ws.OPEN,
      close: (code, reason) => ws.close(code, reason),
      terminate: () => ws.terminate(),
    });
    const conn = this.deps.hub.open(port, request);
    const state: Live = { conn, port, lastPong: this.deps.clock.now(), frames: Promise.resolve() };
    this.live.set(ws, state);
    if (conn.authenticated && conn.username === '') this.deps.actions.onAuthenticated(conn);
    if (!conn.authenticated) {
      const grace = setTimeout(() => {
        if (!conn.authenticated) port.close(1008, 'not authenticated');
      }, this.deps.timers.authTimeoutMs);
      grace.unref();
      ws.once('close', () => clearTimeout(grace));
    }
    ws.on('pong', () => {
      state.lastPong = this.deps.clock.now();
      conn.lastActivity = state.lastPong;
    });
    ws.on('message', (data: RawData) => {
      conn.lastActivity = this.deps.clock.now();
      let frame: unknown;
      try {
        frame = JSON.parse(frameText(data));
      } catch {
        port.close(1003, 'frame is not JSON');
        return;
      }
      state.frames = state.frames
        .then(() => handleFrame(this.deps.actions, conn, frame, request.serverVersion))
        .then((outcome) => {
          if (outcome === 'close') port.close(1008, 'authentication failed');
        })
        .catch((error: unknown) => this.deps.logger.warn('websocket frame failed', { error: error instanceof Error ? error.message : String(error) }));
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      port.discard();
      this.live.delete(ws);
      this.deps.hub.socketClosed(conn, port);
    });
  }

  private pingAll(): void {
    const oldest = this.deps.clock.now() - this.deps.timers.readDeadlineMs;
    for (const [ws, state] of this.live) {
      if (state.lastPong < oldest) {
        this.deps.metrics?.disconnected('read_deadline');
        ws.terminate();
        continue;
      }
      ws.ping();
    }
  }

  private sweep(): void {
    this.deps.hub.closeExpired();
    this.deps.hub.reap();
  }
}
