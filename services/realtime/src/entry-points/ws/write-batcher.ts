import type { Duplex } from 'node:stream';

/**
 * Coalesces the frames written to a socket during one turn of the event loop into one write: the first
 * frame corks the raw socket, and every corked socket is uncorked once, after the current I/O phase
 * (setImmediate). One event to many sockets still costs one system call per socket, but a socket that gets
 * several events in one turn (a Kafka batch, a backlog after a pause, a reconnect replay) gets them in one
 * writev instead of one each. Frames are never held beyond the current turn.
 */
export class WriteBatcher {
  private readonly corked = new Set<Duplex>();
  private scheduled = false;

  /** Call before handing a frame to the WebSocket library for `socket`. */
  public hold(socket: Duplex): void {
    if (this.corked.has(socket) || socket.destroyed) return;
    socket.cork();
    this.corked.add(socket);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  /** Uncorks every held socket now (also run at shutdown). */
  public readonly flush = (): void => {
    this.scheduled = false;
    const sockets = [...this.corked];
    this.corked.clear();
    for (const socket of sockets) if (!socket.destroyed) socket.uncork();
  };

  public get holding(): number {
    return this.corked.size;
  }
}
