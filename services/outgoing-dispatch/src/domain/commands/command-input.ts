/** A Command body as the client sent it (absent keys undefined); the server fills id, token and times. */
export interface CommandInput {
  readonly id?: string;
  readonly teamId?: string;
  readonly creatorId?: string;
  readonly trigger?: string;
  readonly method?: string;
  readonly username?: string;
  readonly iconUrl?: string;
  readonly autoComplete?: boolean;
  readonly autoCompleteDesc?: string;
  readonly autoCompleteHint?: string;
  readonly displayName?: string;
  readonly description?: string;
  readonly url?: string;
}

/** The fields a body sets on create and replaces on update. */
export function editableFields(input: CommandInput) {
  return {
    trigger: (input.trigger ?? '').toLowerCase(),
    method: input.method ?? '',
    username: input.username ?? '',
    iconUrl: input.iconUrl ?? '',
    autoComplete: input.autoComplete ?? false,
    autoCompleteDesc: input.autoCompleteDesc ?? '',
    autoCompleteHint: input.autoCompleteHint ?? '',
    displayName: input.displayName ?? '',
    description: input.description ?? '',
    url: input.url ?? '',
  };
}
