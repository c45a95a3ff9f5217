import type { Deps } from '../ports';

/** At most this many distinct names are looked up per command (the text is the user's, the lookups are ours). */
const MAX_LOOKUPS = 50;
const AT_MENTION = /\B@[A-Za-z0-9][A-Za-z0-9.\-_:]*/g;
const CHANNEL_MENTION = /\B~[A-Za-z0-9\-_]+/g;
const USERNAME = /^[a-z0-9.\-_:]{1,64}$/;

function unique(matches: IterableIterator<RegExpMatchArray>, prefix: number): string[] {
  const names = new Set<string>();
  for (const m of matches) {
    names.add(m[0].slice(prefix).toLowerCase());
    if (names.size >= MAX_LOOKUPS) break;
  }
  return [...names];
}

/** The name, then the name with trailing `.`, `-`, `_` removed one at a time ("@alice." mentions alice). */
function candidates(name: string): string[] {
  const out = [name];
  for (let n = name; /[._-]$/.test(n); ) {
    n = n.slice(0, -1);
    if (n !== '') out.push(n);
  }
  return out;
}

/**
 * `user_mentions`/`user_mentions_ids` (team members the text @-mentions) and `channel_mentions`/
 * `channel_mentions_ids` (open channels of the team it ~-mentions), as the reference adds them.
 */
export async function mentionFields(deps: Pick<Deps, 'platform'>, text: string, teamId: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const names = unique(text.matchAll(AT_MENTION), 1).filter((n) => USERNAME.test(n));
  if (names.length > 0) {
    const lookups = [...new Set(names.flatMap(candidates))].slice(0, MAX_LOOKUPS * 2);
    const users = new Map((await deps.platform.usersByUsernames(lookups)).map((u) => [u.username, u]));
    const found: [string, string][] = [];
    for (const name of names) {
      const match = candidates(name).find((c) => users.has(c));
      const user = match ? users.get(match) : undefined;
      if (match && user && user.deleteAt === 0 && (await deps.platform.teamRoles(teamId, user.id)) !== '') found.push([match, user.id]);
    }
    if (found.length > 0) {
      out.user_mentions = found.map(([n]) => n);
      out.user_mentions_ids = found.map(([, id]) => id);
    }
  }
  const channels: [string, string][] = [];
  for (const name of unique(text.matchAll(CHANNEL_MENTION), 1)) {
    const channel = await deps.platform.channelByName(teamId, name);
    if (channel && channel.type === 'O' && channel.delete_at === 0) channels.push([name, channel.id]);
  }
  if (channels.length > 0) {
    out.channel_mentions = channels.map(([n]) => n);
    out.channel_mentions_ids = channels.map(([, id]) => id);
  }
  return out;
}
