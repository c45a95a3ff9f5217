import { useState } from 'react';
import { pictureUrl } from '../../api/pictures';
import { Avatar, initialsOf } from '../../ui/avatar';
import { BotLabel, EmptyState, ErrorText, Loading } from '../../ui/feedback';
import { StatusDot } from '../statuses/status-dot';
import { useStatuses } from '../statuses/use-statuses';
import { usePeople } from './use-people';

/** Everyone the user may see, a page at a time; bots carry the BOT label here too. */
export function PeoplePage() {
  const [page, setPage] = useState(0);
  const users = usePeople(page);
  const statuses = useStatuses((users.data ?? []).map((u) => u.id));
  return (
    <>
      <h1>People</h1>
      {users.isPending ? <Loading label="Loading people…" /> : null}
      <ErrorText error={users.error} />
      {users.data && users.data.length === 0 ? <EmptyState title={page === 0 ? 'Nobody here yet.' : 'No more people.'} /> : null}
      {users.data && users.data.length > 0 ? (
        <ul className="rows" aria-label="People">
          {users.data.map((u) => (
            <li key={u.id} className="row" aria-label={`@${u.username}`}>
              <Avatar src={pictureUrl(u)} initials={initialsOf(u.username)} size={32} />
              <span className="name">
                {[u.first_name, u.last_name].filter(Boolean).join(' ') || u.username} <span className="muted">@{u.username}</span> <StatusDot status={statuses.get(u.id)} /> {u.is_bot ? <BotLabel /> : null}
                {u.delete_at !== 0 ? <span className="badge">Deactivated</span> : null}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="inline">
        <button type="button" onClick={() => setPage((p) => Math.max(0, p - 1))} disabled={page === 0}>
          Previous page
        </button>
        <button type="button" onClick={() => setPage((p) => p + 1)} disabled={!users.hasNextPage}>
          Next page
        </button>
      </div>
    </>
  );
}
