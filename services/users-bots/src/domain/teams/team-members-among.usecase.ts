import type { Deps } from '../ports';

/**
 * Which of `userIds` have an active membership in `teamId`, or in any team when `teamId` is undefined
 * (post search's `from:`: the reference only matches authors who are members of the searched team).
 * Internal callers only; at most the ids given, one lookup each.
 */
export async function teamMembersAmong(deps: Pick<Deps, 'members'>, userIds: readonly string[], teamId: string | undefined): Promise<string[]> {
  const unique = [...new Set(userIds)];
  const found = await Promise.all(
    unique.map(async (userId) => {
      if (teamId !== undefined) {
        const member = await deps.members.find(teamId, userId);
        return member !== undefined && member.deleteAt === 0;
      }
      return (await deps.members.listByUser(userId)).length > 0;
    }),
  );
  return unique.filter((_, i) => found[i]);
}
