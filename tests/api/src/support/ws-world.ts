import type { Team } from '@mattermost/types/teams';
import { givenAdminWorld, serviceSettingsRestorer } from './admin-world';
import type { AdminSession } from './fixtures';
import { OfficialSocket } from './mm-websocket';
import { newTeam, teamMember, type Actor } from './posts-fixtures';
import type { Target } from './target';
import { TestSocket, type OpenOptions } from './ws';

/** A target with an admin, a team and two members, and sockets that are closed with it. */
export interface WsWorld {
  readonly target: Target;
  readonly admin: AdminSession;
  readonly team: Team;
  readonly alice: Actor;
  readonly bob: Actor;
  /** A raw socket authenticated by header, after its hello. */
  open(token: string): Promise<TestSocket>;
  /** A raw socket with any credentials and query, as the upgrade left it (no wait for a hello). */
  connect(options: OpenOptions): Promise<TestSocket>;
  /** The official WebSocketClient for `token`, connecting (its hello is the caller's to wait for). */
  official(token: string, auth?: 'challenge' | 'cookie'): OfficialSocket;
  /** Closes every socket, puts back the ServiceSettings named in `alsoRestore`, stops the target. */
  stop(): Promise<void>;
}

export async function wsWorld(options: { alsoRestore?: readonly string[] } = {}): Promise<WsWorld> {
  const { target, admin } = await givenAdminWorld();
  const restore = await serviceSettingsRestorer(admin, options.alsoRestore ?? []);
  const team = await newTeam(admin);
  const alice = await teamMember(target.url, admin, team, 'alice');
  const bob = await teamMember(target.url, admin, team, 'bob');
  const sockets: { close(): void }[] = [];
  const connect = async (open: OpenOptions): Promise<TestSocket> => {
    const socket = await TestSocket.open(target.url, open);
    sockets.push(socket);
    return socket;
  };
  return {
    target,
    admin,
    team,
    alice,
    bob,
    connect,
    open: async (token) => {
      const socket = await connect({ token });
      await socket.event('hello');
      return socket;
    },
    official: (token, auth = 'challenge') => {
      const socket = new OfficialSocket(target.url, token, auth);
      sockets.push(socket);
      return socket;
    },
    stop: async () => {
      for (const socket of sockets) socket.close();
      if (options.alsoRestore?.length) await restore();
      await target.stop();
    },
  };
}
