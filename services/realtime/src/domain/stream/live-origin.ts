import type { EventOrigin } from '../hub';
import type { CursorCodec } from './cursor';
import type { EventStream, StreamRecord } from './event-stream';

/** What comes before a cursor in a frame: the cursor parts follow it. */
export const CURSOR_OPEN = ', "cursor": "';
const CURSOR_OPEN_BYTES = Buffer.from(CURSOR_OPEN, 'latin1');

/** A live event's place in the stream (its record, in delivery); its cursor's shared part is built when a receiver first needs it. */
export class LiveOrigin implements EventOrigin {
  private built: Buffer | undefined;

  public constructor(
    private readonly codec: CursorCodec,
    private readonly stream: EventStream,
    private readonly record: StreamRecord,
  ) {}

  public get topic(): number {
    return this.record.topic;
  }

  public get partition(): number {
    return this.record.partition;
  }

  public get offset(): number {
    return this.record.offset;
  }

  /** Everything handled so far and this record: the stream's offsets as they are, read in place. */
  public head(): Buffer {
    const r = this.record;
    this.built ??= this.codec.headBytes(CURSOR_OPEN_BYTES, r.time, this.stream.offsetsNow, r.topic, r.partition, r.offset + 1);
    return this.built;
  }
}
