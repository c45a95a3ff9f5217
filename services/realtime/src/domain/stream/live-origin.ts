import type { EventOrigin } from '../hub';
import type { CursorCodec } from './cursor';
import type { EventStream } from './event-stream';

/** What comes before a cursor in a frame: the cursor parts follow it. */
export const CURSOR_OPEN = ', "cursor": "';

/** A live event's place in the stream; its cursor's shared part is built when a receiver first needs it. */
export class LiveOrigin implements EventOrigin {
  private built: Buffer | undefined;

  public constructor(
    private readonly codec: CursorCodec,
    private readonly stream: EventStream,
    public readonly topic: number,
    public readonly partition: number,
    public readonly offset: number,
    private readonly time: number | undefined,
  ) {}

  public head(): Buffer {
    this.built ??= Buffer.from(CURSOR_OPEN + this.codec.head(this.stream.positionWith(this.topic, this.partition, this.offset, this.time)), 'latin1');
    return this.built;
  }
}
