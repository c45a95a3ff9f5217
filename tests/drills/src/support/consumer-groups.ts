import type { ServiceProcess } from './processes';

/** The partitions of `topic` (namespaced) in the last group join `process` logged for `groupId`, if any. */
function lastAssignment(process: ServiceProcess, groupId: string, topic: string): number[] | undefined {
  const joins = process.lines.filter((l) => l.message === 'event consumer joined its group' && l.groupId === groupId);
  const last = joins.at(-1);
  if (!last) return undefined;
  const assignment = (last.assignment ?? {}) as Record<string, number[]>;
  return assignment[topic] ?? [];
}

/**
 * Waits until every process' last logged join of each group holds partitions of its topic, and no partition
 * is held twice: only the final generation of a rebalance looks like that (in an earlier one the first
 * member held everything). This is what the members themselves report (kafkajs GROUP_JOIN), not a guess at
 * how long joining takes.
 */
export async function consumerGroupsSettled(processes: readonly ServiceProcess[], groups: readonly { groupId: string; topic: string }[], timeoutMs = 60_000): Promise<void> {
  const settled = (): boolean =>
    groups.every(({ groupId, topic }) => {
      const held = processes.map((p) => lastAssignment(p, groupId, topic));
      if (held.some((partitions) => partitions === undefined || partitions.length === 0)) return false;
      const all = held.flatMap((partitions) => partitions ?? []);
      return new Set(all).size === all.length;
    });
  const until = Date.now() + timeoutMs;
  while (!settled()) {
    if (Date.now() > until) throw new Error(`consumer groups not settled within ${timeoutMs} ms: ${groups.map((g) => g.groupId).join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
