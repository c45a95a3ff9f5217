/** A custom slash command as `GET /api/v4/commands` returns it (the fields the console uses). */
export interface Command {
  readonly id: string;
  readonly token: string;
  readonly create_at: number;
  readonly creator_id: string;
  readonly team_id: string;
  readonly trigger: string;
  readonly method: string;
  readonly username: string;
  readonly icon_url: string;
  readonly auto_complete: boolean;
  readonly auto_complete_desc: string;
  readonly auto_complete_hint: string;
  readonly display_name: string;
  readonly description: string;
  readonly url: string;
}

export type CommandDraft = Pick<Command, 'trigger' | 'url' | 'method' | 'display_name' | 'description' | 'username' | 'icon_url' | 'auto_complete' | 'auto_complete_desc' | 'auto_complete_hint'>;

export const emptyDraft: CommandDraft = {
  trigger: '',
  url: '',
  method: 'P',
  display_name: '',
  description: '',
  username: '',
  icon_url: '',
  auto_complete: false,
  auto_complete_desc: '',
  auto_complete_hint: '',
};

/** The reference's limits (model.Command.IsValid). */
export const CommandLimits = { trigger: 128, url: 1024, displayName: 64, description: 128 } as const;

const bytes = (value: string): number => new TextEncoder().encode(value).length;

/** Problems with a draft, by field, in words (the checks the server makes, so they show before sending). */
export function commandProblems(draft: CommandDraft): Partial<Record<keyof CommandDraft, string>> {
  const problems: Partial<Record<keyof CommandDraft, string>> = {};
  const trigger = draft.trigger.trim();
  if (trigger === '') problems.trigger = 'A trigger word is required.';
  else if (trigger.startsWith('/')) problems.trigger = 'Leave out the leading slash: it is added when the command is used.';
  else if (/\s/.test(trigger)) problems.trigger = 'A trigger word cannot contain spaces.';
  else if (bytes(trigger) > CommandLimits.trigger) problems.trigger = `At most ${CommandLimits.trigger} characters.`;
  if (draft.url.trim() === '') problems.url = 'The request URL is required.';
  else if (bytes(draft.url) > CommandLimits.url) problems.url = `At most ${CommandLimits.url} characters.`;
  else if (!/^https?:\/\/[^\s/]+/i.test(draft.url.trim())) problems.url = 'Use a URL starting with http:// or https://.';
  if (bytes(draft.display_name) > CommandLimits.displayName) problems.display_name = `At most ${CommandLimits.displayName} characters.`;
  if (bytes(draft.description) > CommandLimits.description) problems.description = `At most ${CommandLimits.description} characters.`;
  return problems;
}

/** Whether the viewer sees (and may regenerate) a command's token: its creator, or someone who manages others' commands. */
export const showsToken = (command: Command, meId: string, managesOthers: boolean): boolean => command.creator_id === meId || managesOthers;
