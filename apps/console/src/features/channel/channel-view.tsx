import { useEffect, useState } from 'react';
import type { Channel, Post, User } from '../../api/types';
import { EmptyState, ErrorText, Loading } from '../../ui/feedback';
import { useRouter } from '../../ui/router';
import { useDataSources } from '../data-sources/use-data-sources';
import { DialogHost } from '../dialogs/dialog-host';
import { useMe } from '../session/use-session';
import { useStatuses } from '../statuses/use-statuses';
import { Composer } from './composer';
import { DirectName } from './direct-name';
import { useLiveMode } from './live-events';
import { attachmentsOf } from './message-attachments/types';
import { PinnedPanel } from './pinned-panel';
import { PostItem } from './post-item';
import { useChannelPosts, useReactions, useUsers } from './use-channel-data';
import { useEphemeralPosts } from './use-ephemeral';
import { usePinAction } from './use-pins';
import { usePostActions } from './use-post-actions';
import { isSlashCommand, useSlashCommand } from './use-slash-command';

const PINNED = 'pinned';

/** A channel: its posts oldest to newest (root posts here, replies in the thread panel), the composer, live status. */
export function ChannelView({ channel, directWith, teamId }: { channel: Channel; directWith?: User | undefined; teamId: string }) {
  const me = useMe().data;
  const { navigate } = useRouter();
  const command = useSlashCommand(channel.id, channel.team_id || teamId, navigate);
  const mode = useLiveMode();
  const posts = useChannelPosts(channel.id);
  const ephemeral = useEphemeralPosts(channel.id);
  const { createPost, react, doAction } = usePostActions(channel.id);
  const pin = usePinAction(channel.id);
  // One side panel at a time: a thread (by its root id) or the pinned messages.
  const [panel, setPanel] = useState<string | undefined>();
  const threadId = panel === PINNED ? undefined : panel;
  const setThreadId = setPanel;
  const all: Post[] = posts.data ? posts.data.order.map((id) => posts.data.posts[id]).filter((p): p is Post => !!p && p.delete_at === 0) : [];
  const merged = [...all, ...ephemeral].sort((a, b) => a.create_at - b.create_at);
  const replies = new Map<string, Post[]>();
  for (const p of merged) if (p.root_id) replies.set(p.root_id, [...(replies.get(p.root_id) ?? []), p]);
  // Ephemeral answers show in the channel too (they are replies to the pressed post, seen by one person only).
  const roots = merged.filter((p) => !p.root_id || p.type === 'system_ephemeral' || !all.some((r) => r.id === p.root_id));
  const users = useUsers(merged.map((p) => p.user_id));
  const statuses = useStatuses(merged.map((p) => p.user_id));
  const reactions = useReactions(all.filter((p) => p.has_reactions).map((p) => p.id));
  const needUsers = merged.some((p) => attachmentsOf(p.props).some((a) => a.actions?.some((x) => x.data_source === 'users')));
  const sources = useDataSources(channel.team_id, needUsers);
  const where = channel.type === 'D' ? `@${directWith?.username ?? 'someone'}` : `~${channel.name}`;
  const thread = threadId ? all.find((p) => p.id === threadId) : undefined;
  // A message starting with "/" is a slash command (POST /commands/execute), as in the reference's client.
  const send = (message: string, fileIds: readonly string[], done: () => void, rootId?: string) => {
    if (isSlashCommand(message) && fileIds.length === 0) command.mutate({ command: message, ...(rootId ? { rootId } : {}) }, { onSuccess: done });
    else createPost.mutate({ message, fileIds, ...(rootId ? { rootId } : {}) }, { onSuccess: done });
  };

  // A search result's link ends in #post-<id>: that message is scrolled to and marked once the posts are in.
  const loaded = posts.data !== undefined;
  useEffect(() => {
    if (!loaded) return;
    const target = document.getElementById(window.location.hash.slice(1));
    if (!window.location.hash.startsWith('#post-') || !target) return;
    target.scrollIntoView({ block: 'center' });
    target.classList.add('jumped');
  }, [loaded, channel.id]);

  const item = (post: Post, inThread: boolean) => (
    <li key={post.id} {...(inThread ? {} : { id: `post-${post.id}` })}>
      <PostItem
        post={post}
        author={users.get(post.user_id)}
        reactions={reactions.get(post.id) ?? []}
        meId={me?.id ?? ''}
        replyCount={Math.max(post.reply_count ?? 0, replies.get(post.id)?.length ?? 0)}
        sources={sources}
        busy={doAction.isPending && doAction.variables.postId === post.id}
        status={statuses.get(post.user_id)}
        onAction={(actionId, selectedOption) => doAction.mutate({ postId: post.id, actionId, ...(selectedOption !== undefined ? { selectedOption } : {}) })}
        onReact={(emoji, remove) => me && react.mutate({ userId: me.id, postId: post.id, emoji, remove })}
        {...(!inThread && post.type !== 'system_ephemeral' ? { onOpenThread: () => setThreadId(post.id) } : {})}
        {...(post.type !== 'system_ephemeral' ? { onPin: (on: boolean) => pin.mutate({ postId: post.id, pin: on }) } : {})}
      />
    </li>
  );

  return (
    <div className={thread || panel === PINNED ? 'channel with-thread' : 'channel'}>
      <section className="channel-main" aria-labelledby="channel-title">
        <header className="channel-header">
          <h1 id="channel-title">{channel.type === 'D' ? <DirectName user={directWith} fallback="someone" /> : `~${channel.display_name || channel.name}`}</h1>
          <button type="button" aria-expanded={panel === PINNED} onClick={() => setPanel(panel === PINNED ? undefined : PINNED)}>
            Pinned messages
          </button>
          <span className="muted live" role="status">
            {mode === 'live' ? 'Live' : mode === 'connecting' ? 'Connecting…' : 'Updating every 2 s (live updates unavailable)'}
          </span>
        </header>
        {channel.purpose ? <p className="muted">{channel.purpose}</p> : null}
        {posts.isPending ? <Loading label="Loading messages…" /> : null}
        <ErrorText error={posts.error ?? doAction.error ?? react.error ?? pin.error} />
        {posts.data && roots.length === 0 ? <EmptyState title="No messages yet.">Write the first one below, or post to an incoming webhook of this channel.</EmptyState> : null}
        <ol className="posts" aria-label={`Messages in ${where}`} aria-live="polite">
          {roots.map((p) => item(p, false))}
        </ol>
        <Composer label={`Write to ${where}`} channelId={channel.id} pending={createPost.isPending || command.isPending} error={createPost.error ?? command.error} onSend={(message, fileIds, done) => send(message, fileIds, done)} />
      </section>
      {thread ? (
        <aside className="thread" aria-labelledby="thread-title">
          <header className="channel-header">
            <h2 id="thread-title">Thread</h2>
            <button type="button" onClick={() => setThreadId(undefined)}>
              Close thread
            </button>
          </header>
          <ol className="posts" aria-label="Thread messages">
            {item(thread, true)}
            {(replies.get(thread.id) ?? []).map((p) => item(p, true))}
          </ol>
          <Composer label="Reply to the thread" channelId={channel.id} pending={createPost.isPending || command.isPending} error={createPost.error ?? command.error} onSend={(message, fileIds, done) => send(message, fileIds, done, thread.id)} />
        </aside>
      ) : null}
      {panel === PINNED ? <PinnedPanel channelId={channel.id} users={users} onClose={() => setPanel(undefined)} /> : null}
      <DialogHost channelId={channel.id} teamId={channel.team_id || teamId} />
    </div>
  );
}
