import type { Post, Reaction, User } from '../../api/types';
import { Avatar } from '../../ui/avatar';
import { BotLabel } from '../../ui/feedback';
import { Markdown } from '../../ui/markdown/markdown';
import { filesOf } from '../files/file-rules';
import { StatusDot } from '../statuses/status-dot';
import type { StatusValue } from '../statuses/use-statuses';
import { PostFiles } from '../files/post-files';
import { BlockKit } from './block-kit';
import { MessageAttachments } from './message-attachments/message-attachment';
import type { DataSources } from '../data-sources/data-sources';
import { attachmentsOf, type OnAction } from './message-attachments/types';
import { emojiOf, senderOf } from './post-view';

export interface PostItemProps {
  readonly post: Post;
  readonly author: User | undefined;
  readonly reactions: readonly Reaction[];
  readonly meId: string;
  readonly replyCount: number;
  readonly sources: DataSources;
  readonly busy: boolean;
  /** The author's status, shown beside the name (not for webhook posts, which speak for no one). */
  readonly status?: StatusValue | undefined;
  onAction: OnAction;
  onReact(emoji: string, remove: boolean): void;
  onOpenThread?: () => void;
  /** Pins (true) or unpins the post; absent where pinning is not offered (ephemeral posts). */
  onPin?: (pin: boolean) => void;
}

const QUICK_REACTIONS = ['+1', 'tada', 'eyes'];

/** One post: sender (overridden name and icon, BOT label), time, Markdown, attachments, reactions, replies. */
export function PostItem({ post, author, reactions, meId, replyCount, sources, busy, status, onAction, onReact, onOpenThread, onPin }: PostItemProps) {
  const sender = senderOf(post, author);
  const ephemeral = post.type === 'system_ephemeral';
  const counts = new Map<string, { count: number; mine: boolean }>();
  for (const r of reactions) {
    const c = counts.get(r.emoji_name) ?? { count: 0, mine: false };
    counts.set(r.emoji_name, { count: c.count + 1, mine: c.mine || r.user_id === meId });
  }
  const time = new Date(post.create_at);
  return (
    <article className={ephemeral ? 'post ephemeral' : 'post'} aria-label={`${sender.name}${sender.isBot ? ' (bot)' : ''} at ${time.toLocaleTimeString()}`}>
      <Avatar src={sender.iconUrl} initials={sender.initials} />
      <div className="post-body">
        <header className="post-header">
          <span className="sender">{sender.name}</span>
          {!post.props.from_webhook ? <StatusDot status={status} /> : null}
          {sender.isBot ? <BotLabel /> : null}
          <time dateTime={time.toISOString()} className="muted">
            {time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
          </time>
          {post.edit_at > 0 ? <span className="muted">(edited)</span> : null}
          {ephemeral ? <span className="muted">(Only visible to you)</span> : null}
          {post.is_pinned ? <span className="pin-label">Pinned</span> : null}
        </header>
        {post.message ? <Markdown className="post-message" text={post.message} /> : null}
        <PostFiles files={filesOf(post)} />
        <BlockKit blocks={post.props.blocks} />
        <MessageAttachments attachments={attachmentsOf(post.props)} onAction={onAction} busy={busy} sources={sources} />
        {!ephemeral ? (
          <div className="post-footer">
            {[...counts].map(([emoji, c]) => (
              <button key={emoji} type="button" className={c.mine ? 'reaction mine' : 'reaction'} aria-pressed={c.mine} aria-label={`${emoji} reaction, ${c.count}${c.mine ? ', yours' : ''}`} onClick={() => onReact(emoji, c.mine)}>
                {emojiOf(emoji)} {c.count}
              </button>
            ))}
            {QUICK_REACTIONS.filter((e) => !counts.get(e)?.mine).map((emoji) => (
              <button key={emoji} type="button" className="reaction add" aria-label={`React with ${emoji}`} onClick={() => onReact(emoji, false)}>
                +{emojiOf(emoji)}
              </button>
            ))}
            {onPin ? (
              <button type="button" className="link" onClick={() => onPin(!post.is_pinned)}>
                {post.is_pinned ? 'Unpin' : 'Pin'}
              </button>
            ) : null}
            {onOpenThread ? (
              <button type="button" className="link" onClick={onOpenThread}>
                {replyCount === 0 ? 'Reply' : replyCount === 1 ? '1 reply' : `${replyCount} replies`}
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </article>
  );
}
