import type { Team } from '@mattermost/types/teams';
import { ensureAdmin, type AdminSession } from './fixtures';
import { newTeam, teamMember, type Actor } from './posts-fixtures';
import { startTarget, type Target } from './target';
import { TestSocket } from './ws';

/** A target with an admin, a team and two members, and raw sockets that are closed with it. */
export interface WsWorld {
  readonly target: Target;
  readonly admin: AdminSession;
  readonly team: Team;
  readonly alice: Actor;
  readonly bob: Actor;
  /** A raw socket authenticated by header, after its hello. */
  open(token: string): Promise<TestSocket>;
  stop(): Promise<void>;
}

export async function wsWorld(): Promise<WsWorld> {
  const target = await startTarget();
  const admin = await ensureAdmin(target.url);
  const team = await newTeam(admin);
  const alice = await teamMember(target.url, admin, team, 'alice');
  const bob = await teamMember(target.url, admin, team, 'bob');
  const sockets: TestSocket[] = [];
  return {
    target,
    admin,
    team,
    alice,
    bob,
    open: async (token) => {
      const socket = await TestSocket.open(target.url, { token });
      sockets.push(socket);
      await socket.event('hello');
      return socket;
    },
    stop: async () => {
      for (const socket of sockets) socket.close();
      await target.stop();
    },
  };
}
