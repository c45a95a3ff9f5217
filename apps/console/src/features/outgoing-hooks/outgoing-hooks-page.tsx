import { Permissions } from '@switchyard/permissions';
import { useCallback, useState } from 'react';
import type { Team } from '../../api/types';
import { EmptyState, ErrorText, Loading } from '../../ui/feedback';
import { usePermissions } from '../session/use-permissions';
import { TeamPicker } from '../teams/team-picker';
import { useMyChannels } from '../teams/use-teams';
import { OutgoingHookForm } from './outgoing-hook-form';
import { OutgoingHookRow } from './outgoing-hook-row';
import { useHookChoices } from './use-hook-choices';
import { useOutgoingHookActions, useOutgoingHooks } from './use-outgoing-hooks';

/** Outgoing webhooks of a team: create, list with token, signing secret and delivery log. */
export function OutgoingHooksPage() {
  const [teamId, setTeamId] = useState<string | undefined>();
  const pickTeam = useCallback((team: Team) => setTeamId(team.id), []);
  const { canInTeam } = usePermissions();
  const allowed = teamId ? canInTeam(teamId, Permissions.manageOutgoingWebhooks) : false;
  const channels = useMyChannels(allowed ? teamId : undefined);
  const hooks = useOutgoingHooks(allowed ? teamId : undefined);
  const { create } = useOutgoingHookActions();
  const [formKey, setFormKey] = useState(0);
  const { bots, eventTypes } = useHookChoices();
  return (
    <>
      <h1>Outgoing webhooks</h1>
      <p className="lead">An outgoing webhook sends matching messages from public channels (or, with a bot, the bot’s conversations) and other events you choose to your service, which may answer with a reply.</p>
      <TeamPicker teamId={teamId} onChange={pickTeam} />
      {teamId && !allowed ? <p className="notice">You do not have permission to manage outgoing webhooks in this team.</p> : null}
      {allowed && teamId && channels.data ? (
        <section aria-labelledby="new-outgoing">
          <h2 id="new-outgoing">Add an outgoing webhook</h2>
          {create.isSuccess ? <p role="status">Created {create.data.display_name}. Its token and signing secret are in the list below.</p> : null}
          <OutgoingHookForm
            key={formKey}
            teamId={teamId}
            channels={channels.data}
            bots={bots}
            eventTypes={eventTypes}
            submitLabel="Create outgoing webhook"
            pending={create.isPending}
            error={create.error}
            onSubmit={(input) => create.mutate(input, { onSuccess: () => setFormKey((k) => k + 1) })}
          />
        </section>
      ) : null}
      {allowed && teamId ? (
        <section aria-labelledby="outgoing-list">
          <h2 id="outgoing-list">Webhooks in this team</h2>
          {hooks.isPending ? <Loading label="Loading webhooks…" /> : null}
          <ErrorText error={hooks.error ?? channels.error} />
          {hooks.data && hooks.data.length === 0 ? <EmptyState title="No outgoing webhooks yet.">Add one above with a trigger word and your service's URL.</EmptyState> : null}
          {hooks.data && hooks.data.length > 0 ? (
            <ul className="rows" aria-label="Outgoing webhooks">
              {hooks.data.map((hook) => (
                <OutgoingHookRow key={hook.id} hook={hook} teamId={teamId} channels={channels.data ?? []} bots={bots} eventTypes={eventTypes} />
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
