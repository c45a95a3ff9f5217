import { pictureUrl } from '../../api/pictures';
import type { Post, User } from '../../api/types';
import { initialsOf } from '../../ui/avatar';
import { safeUrl } from './message-attachments/attachment-rules';

/**
 * How a post's sender is shown, as the reference's web app does: the webhook's overridden name and icon
 * when the post carries them (`override_icon_url`), otherwise the author's profile picture (a bot's icon
 * when it has one); the BOT label for bots and webhook posts.
 */
export interface SenderView {
  readonly name: string;
  readonly iconUrl: string | undefined;
  readonly isBot: boolean;
  readonly initials: string;
}

export function senderOf(post: Post, author: User | undefined): SenderView {
  const fromWebhook = post.props.from_webhook === 'true' || post.props.from_webhook === true;
  const overrideName = typeof post.props.override_username === 'string' && post.props.override_username !== '' ? post.props.override_username : undefined;
  const overrideIcon = typeof post.props.override_icon_url === 'string' ? safeUrl(post.props.override_icon_url) : undefined;
  const name = overrideName ?? author?.username ?? (post.type.startsWith('system_') ? 'System' : 'someone');
  const iconUrl = overrideIcon ?? (author ? pictureUrl(author) : undefined);
  return { name, iconUrl, isBot: fromWebhook || author?.is_bot === true, initials: initialsOf(name) };
}

/** Emoji names the reference's clients show as characters; others are shown as :name:. */
const EMOJI: Readonly<Record<string, string>> = {
  '+1': '👍',
  thumbsup: '👍',
  '-1': '👎',
  thumbsdown: '👎',
  smile: '😄',
  heart: '❤️',
  tada: '🎉',
  eyes: '👀',
  white_check_mark: '✅',
  rocket: '🚀',
};

export function emojiOf(name: string): string {
  return EMOJI[name] ?? `:${name}:`;
}
