import type { InternalChannel } from '@switchyard/contracts';
import { fastDelivery, harness, type Caller, type Harness } from './harness';
import { startReceiver, type Receiver } from './receiver';

/** What the action and dialog route tests start from. */
export interface IntegrationWorld {
  readonly h: Harness;
  readonly receiver: Receiver;
  readonly teamId: string;
  readonly channel: InternalChannel;
  /** A system_user in the team and the channel. */
  readonly member: Caller & { readonly username: string };
  /** Clears the receiver's log and has it answer 200 `{}` again (for `beforeEach`). */
  reset(): void;
  stop(): Promise<void>;
}

/**
 * A started harness that signs integration requests with `signingSecret` and delivers fast, a loopback
 * receiver answering 200 `{}`, a team named `team`, its channel `channel` and one member in both.
 */
export async function integrationWorld(options: { signingSecret: string; team: string; channel: { type: 'O' | 'P'; name: string }; member: string }): Promise<IntegrationWorld> {
  const h = await harness();
  h.setConfig((c) => {
    fastDelivery(c);
    c.ServiceSettings.IntegrationSigningSecret = options.signingSecret;
  });
  const receiver = await startReceiver();
  const teamId = h.world.team(options.team);
  const user = h.world.user(options.member, { teamId });
  const member = { id: user.id, roles: 'system_user', username: user.username };
  const channel = h.world.channel(teamId, options.channel.type, options.channel.name);
  h.world.joinChannel(channel.id, member.id);
  const reset = (): void => {
    receiver.requests.length = 0;
    receiver.respond(() => ({ status: 200, body: '{}' }));
  };
  reset();
  return {
    h,
    receiver,
    teamId,
    channel,
    member,
    reset,
    stop: async () => {
      await h.stop();
      await receiver.close();
    },
  };
}
