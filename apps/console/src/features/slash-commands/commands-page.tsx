import { Permissions } from '@switchyard/permissions';
import { useCallback, useState } from 'react';
import type { Team } from '../../api/types';
import { CopyButton } from '../../ui/copy-button';
import { EmptyState, ErrorText, Loading } from '../../ui/feedback';
import { useMe } from '../session/use-session';
import { usePermissions } from '../session/use-permissions';
import { TeamPicker } from '../teams/team-picker';
import { CommandForm } from './command-form';
import { showsToken } from './command-rules';
import { CommandRow } from './command-row';
import { useCommandActions, useCommands } from './use-commands';

/** A team's custom slash commands: add one (its token shown once created), list, edit, delete, new token. */
export function CommandsPage() {
  const [teamId, setTeamId] = useState<string | undefined>();
  const pickTeam = useCallback((team: Team) => setTeamId(team.id), []);
  const meId = useMe().data?.id ?? '';
  const { canInTeam } = usePermissions();
  const allowed = teamId ? canInTeam(teamId, Permissions.manageSlashCommands) : false;
  const managesOthers = teamId ? canInTeam(teamId, Permissions.manageOthersSlashCommands) : false;
  const commands = useCommands(allowed ? teamId : undefined);
  const { create } = useCommandActions(teamId);
  const [formKey, setFormKey] = useState(0);
  return (
    <>
      <h1>Slash commands</h1>
      <p className="lead">A slash command sends what someone types after “/trigger” to your service, from any channel they can post in; your service answers with the message to show.</p>
      <TeamPicker teamId={teamId} onChange={pickTeam} />
      {teamId && !allowed ? <p className="notice">You do not have permission to manage slash commands in this team.</p> : null}
      {allowed && teamId ? (
        <section aria-labelledby="new-command">
          <h2 id="new-command">Add a slash command</h2>
          {create.isSuccess ? (
            <div role="status" className="notice">
              <p>
                Created /{create.data.trigger}. Your service checks this token on every request:{' '}
                <code className="mono" aria-label="New command token">
                  {create.data.token}
                </code>
              </p>
              <CopyButton value={create.data.token} label="Copy new token" />
            </div>
          ) : null}
          <CommandForm key={formKey} submitLabel="Create slash command" pending={create.isPending} error={create.error} onSubmit={(draft) => create.mutate(draft, { onSuccess: () => setFormKey((k) => k + 1) })} />
        </section>
      ) : null}
      {allowed && teamId ? (
        <section aria-labelledby="command-list">
          <h2 id="command-list">Commands in this team</h2>
          {commands.isPending ? <Loading label="Loading commands…" /> : null}
          <ErrorText error={commands.error} />
          {commands.data && commands.data.length === 0 ? <EmptyState title="No slash commands yet.">Add one above with a trigger word and your service's URL.</EmptyState> : null}
          {commands.data && commands.data.length > 0 ? (
            <ul className="rows" aria-label="Slash commands">
              {commands.data.map((command) => (
                <CommandRow key={command.id} command={command} showToken={showsToken(command, meId, managesOthers)} />
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
