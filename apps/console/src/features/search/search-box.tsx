import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import type { Channel, Post } from '../../api/types';
import { EmptyState, ErrorText, Loading } from '../../ui/feedback';
import { Link } from '../../ui/router';
import { highlightParts } from './highlight';
import { keys } from '../../api/query-keys';

interface SearchResults {
  readonly order: readonly string[];
  readonly posts: Readonly<Record<string, Post>>;
  readonly matches: Readonly<Record<string, readonly string[]>> | null;
}

/** Message search in a team (POST /teams/{id}/posts/search, the reference's syntax): results with highlights, each a link to its post. */
export function SearchBox({ teamId, teamName, channels }: { teamId: string; teamName: string; channels: readonly Channel[] }) {
  const [draft, setDraft] = useState('');
  const [terms, setTerms] = useState('');
  const results = useQuery({
    queryKey: keys.search(teamId, terms),
    queryFn: () =>
      api.post<SearchResults>(`/teams/${teamId}/posts/search`, { terms, is_or_search: false, page: 0, per_page: 20, include_deleted_channels: false, time_zone_offset: -new Date().getTimezoneOffset() * 60 }),
    enabled: terms !== '',
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTerms(draft.trim());
  };
  const byId = new Map(channels.map((c) => [c.id, c]));
  return (
    <div className="search">
      <form role="search" aria-label="Search messages" onSubmit={submit}>
        <input type="search" aria-label="Search messages" placeholder="Search: words, &quot;phrases&quot;, from:, in:, #tags" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit">Search</button>
        {terms !== '' ? (
          <button type="button" onClick={() => setTerms('')}>
            Clear
          </button>
        ) : null}
      </form>
      {terms !== '' && results.isPending ? <Loading label="Searching…" /> : null}
      <ErrorText error={results.error} />
      {results.data && results.data.order.length === 0 ? <EmptyState title="No messages found.">Try other words, or fewer filters.</EmptyState> : null}
      {results.data && results.data.order.length > 0 ? (
        <ol className="search-results" aria-label="Search results">
          {results.data.order.map((id) => {
            const post = results.data.posts[id];
            if (!post) return null;
            const channel = byId.get(post.channel_id);
            const words = results.data.matches?.[id] ?? [];
            return (
              <li key={id}>
                <div className="muted">
                  {channel ? `~${channel.display_name || channel.name}` : 'a channel'} · {new Date(post.create_at).toLocaleString()}
                </div>
                <p>
                  {highlightParts(post.message, words).map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
                </p>
                {channel ? (
                  <Link to={`/channels/${teamName}/${channel.name}#post-${id}`} onClickCapture={() => setTerms('')}>
                    Jump to message
                  </Link>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
    </div>
  );
}
