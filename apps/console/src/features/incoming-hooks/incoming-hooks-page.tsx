import { Permissions } from '@switchyard/permissions';
import { useCallback, useState } from 'react';
import type { IncomingHook, Team } from '../../api/types';
import { CopyButton } from '../../ui/copy-button';
import { EmptyState, ErrorText, Loading } from '../../ui/feedback';
import { usePermissions } from '../session/use-permissions';
import { TeamPicker } from '../teams/team-picker';
import { useMyChannels } from '../teams/use-teams';
import { IncomingHookForm } from './incoming-hook-form';
import { IncomingHookRow } from './incoming-hook-row';
import { hookUrl, useIncomingHookActions, useIncomingHooks } from './use-incoming-hooks';

/** Incoming webhooks of a team: create, list with addresses, test, edit, delete. */
export function IncomingHooksPage() {
  const [teamId, setTeamId] = useState<string | undefined>();
  const pickTeam = useCallback((team: Team) => setTeamId(team.id), []);
  const { canInTeam } = usePermissions();
  const allowed = teamId ? canInTeam(teamId, Permissions.manageIncomingWebhooks) : false;
  const channels = useMyChannels(allowed ? teamId : undefined);
  const hooks = useIncomingHooks(allowed ? teamId : undefined);
  const { create } = useIncomingHookActions();
  const [created, setCreated] = useState<IncomingHook | undefined>();
  return (
    <>
      <h1>Incoming webhooks</h1>
      <p className="lead">An incoming webhook is an address other systems post messages to. Its posts carry the BOT label.</p>
      <TeamPicker teamId={teamId} onChange={pickTeam} />
      {teamId && !allowed ? <p className="notice">You do not have permission to manage incoming webhooks in this team.</p> : null}
      {allowed && channels.data ? (
        <section aria-labelledby="new-incoming">
          <h2 id="new-incoming">Add an incoming webhook</h2>
          {created ? (
            <div className="notice" role="status">
              <p>
                Created <strong>{created.display_name}</strong>. Integrations post to:
              </p>
              <span className="inline">
                <code className="mono url">{hookUrl(created)}</code>
                <CopyButton value={hookUrl(created)} label="Copy new webhook URL" />
              </span>
            </div>
          ) : null}
          {channels.data.length === 0 ? (
            <EmptyState title="You are in no channel of this team.">Join a channel first; a webhook posts to one of your channels.</EmptyState>
          ) : (
            <IncomingHookForm
              key={created?.id ?? 'new'}
              channels={channels.data}
              submitLabel="Create incoming webhook"
              pending={create.isPending}
              error={create.error}
              onSubmit={(input) => create.mutate(input, { onSuccess: setCreated })}
            />
          )}
        </section>
      ) : null}
      {allowed ? (
        <section aria-labelledby="incoming-list">
          <h2 id="incoming-list">Webhooks in this team</h2>
          {hooks.isPending ? <Loading label="Loading webhooks…" /> : null}
          <ErrorText error={hooks.error ?? channels.error} />
          {hooks.data && hooks.data.length === 0 ? <EmptyState title="No incoming webhooks yet.">Add one above, then post JSON such as {'{"text": "hello"}'} to its address.</EmptyState> : null}
          {hooks.data && hooks.data.length > 0 ? (
            <ul className="rows" aria-label="Incoming webhooks">
              {hooks.data.map((hook) => (
                <IncomingHookRow key={hook.id} hook={hook} channels={channels.data ?? []} />
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
