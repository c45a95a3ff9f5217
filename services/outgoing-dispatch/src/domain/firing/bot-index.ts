import type { OutgoingHook } from '../entities';

/** Where a bot hook can hear anything: its channel; else DMs with its bot, its team's channels, and group messages. */
interface BotIndex {
  readonly byChannel: Map<string, OutgoingHook[]>;
  readonly byBot: Map<string, OutgoingHook[]>;
  readonly byTeam: Map<string, OutgoingHook[]>;
  /** Hooks without a channel: any group message may include their bot (membership is checked afterwards). */
  readonly unscoped: readonly OutgoingHook[];
}

/** Built once per cached list (the repository's per-type lists are replaced, never changed, when a hook changes). */
const indexes = new WeakMap<readonly OutgoingHook[], BotIndex>();

function push(map: Map<string, OutgoingHook[]>, key: string, hook: OutgoingHook): void {
  const list = map.get(key);
  if (list) list.push(hook);
  else map.set(key, [hook]);
}

function build(hooks: readonly OutgoingHook[]): BotIndex {
  const index: BotIndex = { byChannel: new Map(), byBot: new Map(), byTeam: new Map(), unscoped: hooks.filter((h) => h.channelId === '') };
  for (const hook of hooks) {
    if (hook.channelId !== '') {
      push(index.byChannel, hook.channelId, hook);
      continue;
    }
    push(index.byBot, hook.botUserId, hook);
    push(index.byTeam, hook.teamId, hook);
  }
  return index;
}

/**
 * The bot hooks of `hooks` whose scope can include the channel, by index (no scan of the others): hooks of
 * this channel; for a DM, the hooks of its two users' bots; for a group message, every hook without a
 * channel; for a team channel, that team's hooks without a channel. The exact rules are applied afterwards.
 */
export function botHooksInScope(hooks: readonly OutgoingHook[], channel: { readonly id: string; readonly type: string; readonly name: string; readonly teamId: string }): readonly OutgoingHook[] {
  if (hooks.length === 0) return hooks;
  let index = indexes.get(hooks);
  if (!index) {
    index = build(hooks);
    indexes.set(hooks, index);
  }
  const own = index.byChannel.get(channel.id) ?? [];
  let others: readonly OutgoingHook[] = [];
  if (channel.type === 'D') others = channel.name.split('__').flatMap((id) => index.byBot.get(id) ?? []);
  else if (channel.type === 'G') others = index.unscoped;
  else others = index.byTeam.get(channel.teamId) ?? [];
  return own.length === 0 ? others : others.length === 0 ? own : [...own, ...others];
}
