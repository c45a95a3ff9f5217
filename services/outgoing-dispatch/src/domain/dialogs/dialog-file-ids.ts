import { badRequest, forbidden } from '@switchyard/errors';
import type { Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';

/** Files a dialog submission may carry (the reference's limit). */
export const MAX_DIALOG_FILES = 10;
/** Id-shaped values looked at in a submission; more is refused (bounded work per request). */
export const MAX_SUBMISSION_IDS = 50;

const ID_SHAPE = /^[a-z0-9]{26}$/;

/** Every id-shaped token of the submission's values: comma-split strings, nested arrays and objects. */
function idTokens(value: unknown, out: Set<string>, depth = 0): void {
  if (depth > 8) return;
  if (typeof value === 'string') {
    for (const part of value.split(',')) if (ID_SHAPE.test(part.trim())) out.add(part.trim());
  }
  else if (Array.isArray(value)) for (const item of value) idTokens(item, out, depth + 1);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) idTokens(item, out, depth + 1);
}

const errors = {
  tooMany: (): ReturnType<typeof badRequest> => badRequest('app.submit_interactive_dialog.too_many_file_ids', `A dialog submission can carry at most ${MAX_DIALOG_FILES} files.`, { detailedError: `Max=${MAX_DIALOG_FILES}` }),
  tooManyIds: (): ReturnType<typeof badRequest> => badRequest('app.submit_interactive_dialog.too_many_submission_ids', 'The submission holds too many id values.', { detailedError: `Max=${MAX_SUBMISSION_IDS}` }),
  invalid: (id: string): ReturnType<typeof badRequest> => badRequest('app.submit_interactive_dialog.invalid_file_id', 'A file of the submission does not exist.', { detailedError: `FileId=${id}` }),
  notOwned: (id: string): ReturnType<typeof forbidden> => forbidden('app.submit_interactive_dialog.file_not_owned', 'A file of the submission was uploaded by someone else.', { detailedError: `FileId=${id}` }),
};

/**
 * A dialog submission's files (11.10, mattermost-wire-3.md §4.3 "Submit with files"): duplicates removed
 * (order kept), at most ten; each must exist, not be deleted and be the caller's own upload (403 otherwise).
 * Values of the submission that are real files must be the caller's too, and count towards the ten.
 * Returns the ids to forward as `file_ids`.
 */
export async function checkDialogFileIds(deps: Deps, actor: Actor, fileIds: readonly string[], submission: Readonly<Record<string, unknown>> | null): Promise<string[]> {
  const declared = [...new Set(fileIds)];
  if (declared.length > MAX_DIALOG_FILES) throw errors.tooMany();
  const tokens = new Set<string>();
  idTokens(submission ?? {}, tokens);
  for (const id of declared) tokens.delete(id);
  if (tokens.size > MAX_SUBMISSION_IDS) throw errors.tooManyIds();
  if (declared.length === 0 && tokens.size === 0) return [];
  const owners = new Map((await deps.platform.fileOwners([...declared, ...tokens])).map((f) => [f.id, f]));
  for (const id of declared) {
    const file = owners.get(id);
    if (!file || file.delete_at !== 0) throw errors.invalid(id);
    if (file.user_id !== actor.userId) throw errors.notOwned(id);
  }
  const discovered = [...tokens].filter((id) => owners.has(id));
  for (const id of discovered) if (owners.get(id)?.user_id !== actor.userId) throw errors.notOwned(id);
  if (declared.length + discovered.length > MAX_DIALOG_FILES) throw errors.tooMany();
  return declared;
}
