import { commonErrors } from '@switchyard/errors';
import { Joi, validate } from '@switchyard/validation';
import type { CommandInput } from '../../domain/commands/command-input';

const text = Joi.string().allow('').max(65536);

/** Command JSON as clients send it (unknown keys, e.g. `autocomplete_data`, ignored; no type coercion). */
export const commandBody = Joi.object({
  id: text,
  token: text,
  team_id: text,
  creator_id: text,
  trigger: text,
  method: text,
  username: text,
  icon_url: text,
  auto_complete: Joi.boolean(),
  auto_complete_desc: text,
  auto_complete_hint: text,
  display_name: text,
  description: text,
  url: text,
}).required();

interface CommandBody {
  id?: string;
  team_id?: string;
  creator_id?: string;
  trigger?: string;
  method?: string;
  username?: string;
  icon_url?: string;
  auto_complete?: boolean;
  auto_complete_desc?: string;
  auto_complete_hint?: string;
  display_name?: string;
  description?: string;
  url?: string;
}

/** A body that does not decode as a Command is 400 `invalid_body_param` naming `command`, as the reference. */
export function commandInputFrom(body: unknown): CommandInput {
  const b = validate<CommandBody>(commandBody, body, { onError: (_key, detail) => commonErrors.invalidBodyParam('command', detail) });
  const input: Record<string, unknown> = {
    id: b.id,
    teamId: b.team_id,
    creatorId: b.creator_id,
    trigger: b.trigger,
    method: b.method,
    username: b.username,
    iconUrl: b.icon_url,
    autoComplete: b.auto_complete,
    autoCompleteDesc: b.auto_complete_desc,
    autoCompleteHint: b.auto_complete_hint,
    displayName: b.display_name,
    description: b.description,
    url: b.url,
  };
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as CommandInput;
}

/** `custom_only` as Go's strconv.ParseBool reads it (anything else is false). */
export function parseGoBool(value: string | undefined): boolean {
  return value !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}
