/**
 * Requests of routes that wait (long-polls: `GET /api/v4/events`) held at once by this gateway, at most
 * `max`: one more is refused at once instead of being held. Each held long-poll keeps two sockets open in
 * the distributed runtime (the client's and the one to realtime), so without a bound a crowd of them takes
 * every file descriptor the process may open, and then anything else fails too (a login's call to
 * users-bots, a new client's connection).
 */
export class WaitingRequests {
  private held = 0;

  public constructor(public readonly max: number) {}

  /** Held now. */
  public get count(): number {
    return this.held;
  }

  /** Takes a place; false when all `max` are taken (the request is refused). */
  public enter(): boolean {
    if (this.held >= this.max) return false;
    this.held += 1;
    return true;
  }

  /** Gives back a place taken by `enter`. */
  public leave(): void {
    this.held = Math.max(0, this.held - 1);
  }
}
