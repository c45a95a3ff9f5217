import type { Clock } from '@switchyard/ids';
import type { ConfigView } from '@switchyard/system-config';
import type { FileStore } from '../files/file-ports';
import type { EventSink, PostRepository, ReactionRepository } from '../ports';
import type { EmojiImageProcessor, EmojiRepository } from './emoji-ports';

/** What the custom emoji use cases need. */
export interface EmojiDeps {
  readonly emoji: EmojiRepository;
  readonly reactions: ReactionRepository;
  readonly posts: PostRepository;
  /** The file store of the current FileSettings (the image lives there, as the reference's). */
  readonly fileStore: () => FileStore;
  readonly images: EmojiImageProcessor;
  readonly liveConfig: ConfigView;
  readonly clock: Clock;
  readonly events: EventSink;
  /** Whether a name is a system emoji's (clients carry those; a custom emoji may not take the name). */
  readonly isSystemEmojiName: (name: string) => boolean;
}

/** ServiceSettings.EnableCustomEmoji. */
export const customEmojiEnabled = (deps: Pick<EmojiDeps, 'liveConfig'>): boolean => deps.liveConfig.current().ServiceSettings.EnableCustomEmoji;
