import { AssignerProtocol, type Admin } from 'kafkajs';
import { setTimeout as delay } from 'node:timers/promises';

/** Polls the broker until `check` holds (an observable condition, not a guess at how long it takes). */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

/** The group is Stable with exactly `members` members, each holding at least one partition. */
export function groupJoined(admin: Admin, groupId: string, members: number, timeoutMs = 30_000): Promise<void> {
  return until(
    async () => {
      const { groups } = await admin.describeGroups([groupId]);
      const group = groups[0];
      if (!group || group.state !== 'Stable' || group.members.length !== members) return false;
      return group.members.every((member) => {
        const decoded = AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
        return decoded !== null && Object.values(decoded.assignment).some((partitions) => partitions.length > 0);
      });
    },
    timeoutMs,
    `group ${groupId} stable with ${members} members`,
  );
}

/** The group's committed offsets on `topic` add up to `count` messages (every partition starting at 0). */
export function committedCount(admin: Admin, groupId: string, topic: string, count: number, timeoutMs = 30_000): Promise<void> {
  return until(
    async () => {
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
      const total = (offsets?.partitions ?? []).reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
      return total === count;
    },
    timeoutMs,
    `group ${groupId} to commit ${count} messages of ${topic}`,
  );
}
