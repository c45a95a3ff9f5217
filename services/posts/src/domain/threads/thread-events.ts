import { envelope, Topics, type ThreadFollowChangedPayload, type ThreadReadChangedPayload, type ThreadUpdatedPayload } from '@switchyard/contracts';
import type { SystemConfig } from '@switchyard/system-config';
import type { Deps } from '../ports';

/**
 * Whether users see collapsed threads when none of them set the preference: `always_on` and `default_on`
 * yes, `default_off` and `disabled` no.
 */
export function crtOnForUsers(config: SystemConfig): boolean {
  const mode = config.ServiceSettings.CollapsedThreads;
  return mode === 'always_on' || mode === 'default_on';
}

/**
 * The reference's IsCRTEnabledForUser for several users: `disabled` no one, `always_on` everyone; otherwise
 * the user's `display_settings`/`collapsed_reply_threads` preference (`on` only) when they set one, else the
 * mode's default. Returns the users who see collapsed threads.
 */
export async function usersWithCrt(deps: Pick<Deps, 'liveConfig' | 'crtPreferences'>, userIds: readonly string[]): Promise<Set<string>> {
  const mode = deps.liveConfig.current().ServiceSettings.CollapsedThreads;
  if (mode === 'disabled' || userIds.length === 0) return new Set();
  if (mode === 'always_on' || !deps.crtPreferences) return mode === 'default_off' ? new Set() : new Set(userIds);
  const values = await deps.crtPreferences.valuesOf(userIds);
  const byDefault = mode === 'default_on';
  return new Set(userIds.filter((id) => {
    const value = values.get(id);
    return value === undefined ? byDefault : value === 'on';
  }));
}

type Events = Pick<Deps, 'events'>;

/** Publishes thread events to realtime (best effort: a failed publish loses the events, never the change). */
async function publish(deps: Events, messages: { key: string; value: unknown }[]): Promise<void> {
  if (messages.length === 0) return;
  await deps.events.publish(Topics.realtimeEvents, messages).catch(() => undefined);
}

export function publishThreadUpdated(deps: Events, payloads: readonly ThreadUpdatedPayload[]): Promise<void> {
  return publish(deps, payloads.map((p) => ({ key: p.user_id, value: envelope('thread.updated', p) })));
}

export function publishFollowChanged(deps: Events, payload: ThreadFollowChangedPayload): Promise<void> {
  return publish(deps, [{ key: payload.user_id, value: envelope('thread.follow_changed', payload) }]);
}

export function publishReadChanged(deps: Events, payload: ThreadReadChangedPayload): Promise<void> {
  return publish(deps, [{ key: payload.user_id, value: envelope('thread.read_changed', payload) }]);
}
