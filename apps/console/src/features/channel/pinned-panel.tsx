import type { Post, User } from '../../api/types';
import { EmptyState, ErrorText, Loading } from '../../ui/feedback';
import { Markdown } from '../../ui/markdown/markdown';
import { senderOf } from './post-view';
import { usePinAction, usePinnedPosts } from './use-pins';

/** The channel's pinned messages (oldest first), each with a link to it in the channel and an Unpin button. */
export function PinnedPanel({ channelId, users, onClose }: { channelId: string; users: ReadonlyMap<string, User>; onClose: () => void }) {
  const pinned = usePinnedPosts(channelId, true);
  const pin = usePinAction(channelId);
  return (
    <aside className="thread" aria-labelledby="pinned-title">
      <header className="channel-header">
        <h2 id="pinned-title">Pinned messages</h2>
        <button type="button" onClick={onClose}>
          Close pinned
        </button>
      </header>
      {pinned.isPending ? <Loading label="Loading pinned messages…" /> : null}
      <ErrorText error={pinned.error ?? pin.error} />
      {pinned.data && pinned.data.length === 0 ? <EmptyState title="Nothing pinned yet.">Pin a message with its Pin button to keep it here.</EmptyState> : null}
      {pinned.data && pinned.data.length > 0 ? (
        <ol className="posts pinned" aria-label="Pinned messages">
          {pinned.data.map((p: Post) => (
            <li key={p.id} aria-label={`Pinned message from ${senderOf(p, users.get(p.user_id)).name}`}>
              <p className="post-header">
                <span className="sender">{senderOf(p, users.get(p.user_id)).name}</span>
                <time className="muted" dateTime={new Date(p.create_at).toISOString()}>
                  {new Date(p.create_at).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' })}
                </time>
              </p>
              {p.message ? <Markdown className="post-message" text={p.message} /> : null}
              <p className="inline">
                <a href={`#post-${p.id}`}>Jump to message</a>
                <button type="button" className="link" disabled={pin.isPending} onClick={() => pin.mutate({ postId: p.id, pin: false })}>
                  Unpin
                </button>
              </p>
            </li>
          ))}
        </ol>
      ) : null}
    </aside>
  );
}
