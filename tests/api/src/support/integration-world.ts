import type { Channel } from '@mattermost/types/channels';
import type { Team } from '@mattermost/types/teams';
import { givenAdminWorld, serviceSettingsRestorer } from './admin-world';
import { patchConfig, type AdminSession } from './fixtures';
import { startOutgoingReceiver, type OutgoingReceiver } from './outgoing-receiver';
import { newChannel, newTeam, teamMember, type Actor } from './posts-fixtures';
import type { Target } from './target';

/** What the integration suites (actions, dialogs, slash commands, outgoing webhooks) start from. */
export interface IntegrationWorld {
  readonly target: Target;
  readonly admin: AdminSession;
  /** A loopback receiver the integrations call. */
  readonly receiver: OutgoingReceiver;
  readonly team: Team;
  /** Created by the admin; `member` is in it. */
  readonly channel: Channel;
  /** A user in the team and the channel. */
  readonly member: Actor;
  /** Puts back the ServiceSettings the world changed (and any the suite names), closes the receiver, stops the target. */
  stop(): Promise<void>;
}

/**
 * A running Switchyard that may call loopback (`AllowedUntrustedInternalConnections: 127.0.0.1`, plus the
 * suite's `serviceSettings`, which may depend on the target's url), a receiver, a fresh team, a channel of `channelType` and a member in both.
 * `stop()` restores every ServiceSettings key it set, and `alsoRestore` (keys a test changes on the way),
 * to the values they had before (a secret reads back masked, and a masked value leaves it as it is).
 */
export async function givenIntegrationWorld(options: { serviceSettings?: Record<string, unknown> | ((targetUrl: string) => Record<string, unknown>); channelType?: 'O' | 'P'; alsoRestore?: readonly string[] } = {}): Promise<IntegrationWorld> {
  const { target, admin } = await givenAdminWorld();
  const receiver = await startOutgoingReceiver();
  const extra = typeof options.serviceSettings === 'function' ? options.serviceSettings(target.url) : options.serviceSettings;
  const settings = { AllowedUntrustedInternalConnections: '127.0.0.1', ...extra };
  const restore = await serviceSettingsRestorer(admin, [...Object.keys(settings), ...(options.alsoRestore ?? [])]);
  await patchConfig(admin.client, { ServiceSettings: settings });
  const team = await newTeam(admin);
  const channel = await newChannel(admin, team, options.channelType ?? 'O');
  const member = await teamMember(target.url, admin, team);
  await admin.client.addToChannel(member.id, channel.id);
  return {
    target,
    admin,
    receiver,
    team,
    channel,
    member,
    stop: async () => {
      await restore();
      await receiver.close();
      await target.stop();
    },
  };
}
