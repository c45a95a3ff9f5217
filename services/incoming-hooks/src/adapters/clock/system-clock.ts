import { newId } from '@switchyard/ids';
import type { Clock, IdGenerator } from '../../domain/ports';

export const systemClock: Clock = { now: () => Date.now() };
export const randomIds: IdGenerator = { newId: () => newId() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  public constructor(private time = 1_700_000_000_000) {}
  public now(): number {
    return this.time;
  }
  public advance(ms: number): void {
    this.time += ms;
  }
}
