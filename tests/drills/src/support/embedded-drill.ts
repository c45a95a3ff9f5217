import assert from 'node:assert/strict';
import { EmbeddedProcess } from './embedded-process';
import { bootstrapAdmin, call } from './processes';

export interface DrillChannel {
  readonly runtime: EmbeddedProcess;
  readonly base: string;
  /** The first admin's token. */
  readonly token: string;
  readonly teamId: string;
  readonly channelId: string;
}

/**
 * The start of every embedded kill drill: the runtime on `dataDir`, started and ready, its first admin, a team
 * and one open channel named `name` in it.
 */
export async function startWithChannel(dataDir: string, name: string, displayName: string): Promise<DrillChannel> {
  const runtime = await EmbeddedProcess.on(dataDir);
  runtime.start();
  await runtime.waitReady();
  const base = runtime.url;
  const token = await bootstrapAdmin(base);
  const team = await call(base, 'POST', '/api/v4/teams', { token, body: { name: `drill${Date.now().toString(36)}`, display_name: 'Drill', type: 'O' } });
  assert.equal(team.status, 201, JSON.stringify(team.body));
  const teamId = String(team.body.id);
  const channel = await call(base, 'POST', '/api/v4/channels', { token, body: { team_id: teamId, name, display_name: displayName, type: 'O' } });
  assert.equal(channel.status, 201, JSON.stringify(channel.body));
  return { runtime, base, token, teamId, channelId: String(channel.body.id) };
}
