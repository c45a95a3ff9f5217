import assert from 'node:assert/strict';
import type { Client4 } from '@mattermost/client';
import type { Channel } from '@mattermost/types/channels';
import type { Post } from '@mattermost/types/posts';
import type { Team } from '@mattermost/types/teams';
import { newClient } from './client';
import { createBot, createTeam, createUserSession, issueToken, patchConfig, uniqueName, type AdminSession, type Session } from './fixtures';
import { raw } from './http';

export interface Actor {
  readonly client: Client4;
  readonly token: string;
  readonly id: string;
  readonly username: string;
}

/** A new user, logged in, member of the team. */
export async function teamMember(url: string, admin: AdminSession, team: Team, prefix = 'm'): Promise<Actor> {
  const session = await createUserSession(url, admin.client, prefix);
  await admin.client.addToTeam(team.id, session.user.id);
  return { client: session.client, token: session.token, id: session.user.id, username: session.username };
}

/** A user not in any team. */
export async function outsider(url: string, admin: AdminSession, prefix = 'o'): Promise<Actor> {
  const session = await createUserSession(url, admin.client, prefix);
  return { client: session.client, token: session.token, id: session.user.id, username: session.username };
}

/** A bot with a token, member of the team, with extra system roles (`system_post_all`, `system_admin`, ...). */
export async function teamBot(url: string, admin: AdminSession, team: Team | undefined, extraRoles = ''): Promise<Actor> {
  await patchConfig(admin.client, { ServiceSettings: { EnableBotAccountCreation: true } });
  const bot = await createBot(admin.client, 'pb');
  if (team) await admin.client.addToTeam(team.id, bot.user_id);
  if (extraRoles !== '') {
    const res = await raw(url, 'PUT', `/api/v4/users/${bot.user_id}/roles`, { token: admin.token, body: { roles: `system_user ${extraRoles}` } });
    assert.equal(res.status, 200, `roles for the bot: ${res.status} ${res.text}`);
  }
  const { token } = await issueToken(admin.client, bot.user_id, 'posts suite');
  return { client: newClient(url, token), token, id: bot.user_id, username: bot.username };
}

export function asActor(session: Session): Actor {
  return { client: session.client, token: session.token, id: session.user.id, username: session.user.username };
}

/** A fresh open team created by the admin (the admin becomes a member). */
export function newTeam(admin: AdminSession): Promise<Team> {
  return createTeam(admin.client, 'pt');
}

/** An open (or private) channel created by `creator` through the official client. */
export function newChannel(creator: Actor | Session, team: Team, type: 'O' | 'P' = 'O'): Promise<Channel> {
  const name = uniqueName('ch');
  return creator.client.createChannel({ team_id: team.id, name, display_name: `Channel ${name}`, type });
}

export function postIn(actor: Actor | Session, channelId: string, message = 'hello', extra: Partial<Post> = {}): Promise<Post> {
  return actor.client.createPost({ channel_id: channelId, message, ...extra });
}
