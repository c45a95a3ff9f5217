import { useEffect } from 'react';
import type { Team } from '../../api/types';
import { EmptyState, ErrorText, Loading } from '../../ui/feedback';
import { SelectField } from '../../ui/field';
import { useMyTeams } from './use-teams';

/** Which team a page works in; picks the first team when none is chosen. Says what to do when there is none. */
export function TeamPicker({ teamId, onChange }: { teamId: string | undefined; onChange: (team: Team) => void }) {
  const teams = useMyTeams();
  const first = teams.data?.[0];
  useEffect(() => {
    if (!teamId && first) onChange(first);
  }, [teamId, first, onChange]);
  if (teams.isPending) return <Loading label="Loading teams…" />;
  if (teams.error) return <ErrorText error={teams.error} />;
  if (teams.data.length === 0) return <EmptyState title="You are not in any team yet.">Ask a team administrator to add you, or create a team with the API.</EmptyState>;
  return (
    <SelectField
      label="Team"
      value={teamId ?? ''}
      onChange={(e) => {
        const team = teams.data.find((t) => t.id === e.target.value);
        if (team) onChange(team);
      }}
    >
      {teams.data.map((t) => (
        <option key={t.id} value={t.id}>
          {t.display_name || t.name}
        </option>
      ))}
    </SelectField>
  );
}
