import type { Command } from '../../domain/commands/command';

/** The reference's Command JSON, every key present (`plugin_id` is always `""` here). */
export function presentCommand(c: Command, sanitised = false) {
  return {
    id: c.id,
    token: sanitised ? '' : c.token,
    create_at: c.createAt,
    update_at: c.updateAt,
    delete_at: c.deleteAt,
    creator_id: sanitised ? '' : c.creatorId,
    team_id: c.teamId,
    trigger: c.trigger,
    method: sanitised ? '' : c.method,
    username: sanitised ? '' : c.username,
    icon_url: sanitised ? '' : c.iconUrl,
    auto_complete: c.autoComplete,
    auto_complete_desc: c.autoCompleteDesc,
    auto_complete_hint: c.autoCompleteHint,
    display_name: c.displayName,
    description: c.description,
    url: sanitised ? '' : c.url,
    plugin_id: '',
  };
}
