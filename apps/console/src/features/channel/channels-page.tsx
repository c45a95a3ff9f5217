import { useEffect } from 'react';
import { EmptyState, ErrorText, Loading } from '../../ui/feedback';
import { Link, useRouter } from '../../ui/router';
import { useMe } from '../session/use-session';
import { useMyChannels, useMyTeams } from '../teams/use-teams';
import { SearchBox } from '../search/search-box';
import { ChannelView } from './channel-view';
import { DirectName, otherMemberId } from './direct-name';
import { useUsers } from './use-channel-data';

/** Teams and their channels (those the user belongs to) beside the chosen channel. `/channels` opens the first one. */
export function ChannelsPage({ teamName, channelName }: { teamName?: string; channelName?: string }) {
  const { navigate } = useRouter();
  const teams = useMyTeams();
  const team = teams.data?.find((t) => t.name === teamName) ?? (teamName ? undefined : teams.data?.[0]);
  const channels = useMyChannels(team?.id);
  const sorted = [...(channels.data ?? [])].filter((c) => c.delete_at === 0 && (c.type === 'O' || c.type === 'P')).sort((a, b) => (a.display_name || a.name).localeCompare(b.display_name || b.name));
  const meId = useMe().data?.id ?? '';
  const direct = (channels.data ?? []).filter((c) => c.delete_at === 0 && c.type === 'D');
  const people = useUsers(direct.map((c) => otherMemberId(c, meId)));
  const channel = [...sorted, ...direct].find((c) => c.name === channelName);
  const first = sorted.find((c) => c.name === 'town-square') ?? sorted[0];
  useEffect(() => {
    if (team && !channelName && first) navigate(`/channels/${team.name}/${first.name}`);
  }, [team, channelName, first, navigate]);

  if (teams.isPending) return <Loading label="Loading teams…" />;
  if (teams.error) return <ErrorText error={teams.error} />;
  if (teams.data.length === 0) return <EmptyState title="You are not in any team yet.">Ask a team administrator to add you.</EmptyState>;
  return (
    <div className="channels-layout">
      <nav aria-label="Channels" className="sidebar">
        {team ? <SearchBox teamId={team.id} teamName={team.name} channels={channels.data ?? []} /> : null}
        {teams.data.map((t) => (
          <div key={t.id}>
            <h2 className="team-name">
              <Link to={`/channels/${t.name}`}>{t.display_name || t.name}</Link>
            </h2>
            {t.id === team?.id ? (
              <ul>
                {sorted.map((c) => (
                  <li key={c.id}>
                    <Link to={`/channels/${t.name}/${c.name}`}>
                      {c.type === 'P' ? '🔒 ' : '# '}
                      {c.display_name || c.name}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : null}
            {t.id === team?.id && direct.length > 0 ? (
              <>
                <h3 className="team-name">Direct messages</h3>
                <ul aria-label="Direct messages">
                  {direct.map((c) => {
                    const otherId = otherMemberId(c, meId);
                    return (
                      <li key={c.id}>
                        <Link to={`/channels/${t.name}/${c.name}`}>
                          <DirectName user={people.get(otherId)} fallback={otherId} />
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              </>
            ) : null}
          </div>
        ))}
        {channels.isPending && team ? <Loading label="Loading channels…" /> : null}
        <ErrorText error={channels.error} />
      </nav>
      <div className="channel-area">
        {!team ? <EmptyState title="That team was not found.">Pick one of your teams from the list.</EmptyState> : null}
        {team && channelName && channels.data && !channel ? <EmptyState title={`You are not in a channel named ${channelName}.`}>Pick a channel from the list.</EmptyState> : null}
        {channel && team ? <ChannelView key={channel.id} channel={channel} teamId={team.id} directWith={channel.type === 'D' ? people.get(otherMemberId(channel, meId)) : undefined} /> : null}
        {team && channels.data && sorted.length === 0 ? <EmptyState title="You are in no channel of this team.">Ask to be added to one.</EmptyState> : null}
      </div>
    </div>
  );
}
