import { newId } from './new-id';

/**
 * The two sources of non-determinism a service's domain takes as ports: the time and new ids.
 * Domain code depends on these interfaces; the composition root passes the system ones, tests a ManualClock.
 */
export interface Clock {
  now(): number;
}

export interface IdGenerator {
  newId(): string;
}

export const systemClock: Clock = { now: () => Date.now() };
export const randomIds: IdGenerator = { newId: () => newId() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  public constructor(public time = 1_700_000_000_000) {}
  public now(): number {
    return this.time;
  }
  public advance(ms: number): void {
    this.time += ms;
  }
}
