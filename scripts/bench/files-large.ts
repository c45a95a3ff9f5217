/**
 * The large-body part of the files bench (files.ts): uploads and downloads far larger than the memory
 * targets, at once, and the largest RSS of each process meanwhile (streamed both ways: it stays near idle).
 */
import { loadavg } from 'node:os';
import { adminToken, must, rssMb } from '../bench-support/target';
import type { TargetProcess } from '../bench-support/target-processes';

export interface LargeFiles {
  readonly token: string;
  readonly ids: readonly string[];
  readonly bytes: number;
  readonly max: Record<string, number>;
}

/** The largest RSS of each process while `during` runs. */
export async function maxRss<T>(processes: readonly TargetProcess[], during: () => Promise<T>): Promise<{ result: T; max: Record<string, number> }> {
  const max: Record<string, number> = {};
  const sample = (): void => {
    for (const p of processes) {
      const mb = rssMb(p.pid);
      if (mb !== undefined) max[p.name] = Math.max(max[p.name] ?? 0, mb);
    }
  };
  const timer = setInterval(sample, 100);
  try {
    const result = await during();
    sample();
    return { result, max };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Bodies far larger than memory targets, at once: BENCH_FILES_LARGE uploads (default 8) of BENCH_FILES_LARGE_MB
 * (default 64) MiB each, in parallel; the largest RSS of each process meanwhile (streamed: it stays near idle).
 */
export async function largeUploads(label: string, url: string, processes: readonly TargetProcess[]): Promise<LargeFiles> {
  const count = Number(process.env.BENCH_FILES_LARGE ?? 8);
  const mb = Number(process.env.BENCH_FILES_LARGE_MB ?? 64);
  const token = await adminToken(url);
  const suffix = Math.random().toString(36).slice(2, 10);
  const team = await must(url, 'POST', '/api/v4/teams', { name: `benchlarge-${suffix}`, display_name: `Bench ${suffix}`, type: 'O' }, token, 201);
  const channel = await must(url, 'POST', '/api/v4/channels', { team_id: team.id, name: `large-${suffix}`, display_name: 'Large', type: 'O' }, token, 201);
  const chunk = Buffer.alloc(1024 * 1024, 0x42);
  const body = (): ReadableStream<Uint8Array> => {
    let sent = 0;
    return new ReadableStream({
      pull(controller) {
        if (sent++ >= mb) controller.close();
        else controller.enqueue(new Uint8Array(chunk));
      },
    });
  };
  const before = Object.fromEntries(processes.map((p) => [p.name, rssMb(p.pid) ?? 0]));
  const started = performance.now();
  const { result, max } = await maxRss(processes, () =>
    Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const res = await fetch(`${url}/api/v4/files?channel_id=${String(channel.id)}&filename=large-${i}.bin`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
          body: body(),
          duplex: 'half',
        } as RequestInit);
        const answer = (await res.json()) as { file_infos?: { id: string }[] };
        return { status: res.status, id: answer.file_infos?.[0]?.id ?? '' };
      }),
    ),
  );
  const ok = result.filter((r) => r.status === 201).length;
  process.stdout.write(
    `files ${count} uploads of ${mb} MiB at once [${label}], chunked: ${ok} stored in ${((performance.now() - started) / 1000).toFixed(1)} s; RSS before → max (MB): ${Object.entries(max).map(([n, m]) => `${n} ${before[n] ?? '?'} → ${m}`).join(', ')} (${count * mb} MiB sent); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`,
  );
  if (ok !== count) throw new Error(`large uploads [${label}]: ${ok} of ${count} stored (${result.map((r) => r.status).join(', ')})`);
  return { token, ids: result.map((r) => r.id), bytes: mb * 1024 * 1024, max };
}

/**
 * The files `largeUploads` stored, downloaded all at once (`GET /api/v4/files/{id}`), each read as it comes
 * and thrown away: the largest RSS of each process meanwhile, and that every byte arrived.
 */
export async function largeDownloads(label: string, url: string, processes: readonly TargetProcess[], files: LargeFiles): Promise<Record<string, number>> {
  const before = Object.fromEntries(processes.map((p) => [p.name, rssMb(p.pid) ?? 0]));
  const started = performance.now();
  const { result, max } = await maxRss(processes, () =>
    Promise.all(
      files.ids.map(async (id) => {
        const res = await fetch(`${url}/api/v4/files/${id}`, { headers: { authorization: `Bearer ${files.token}` } });
        let received = 0;
        const reader = res.body?.getReader();
        for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) received += part.value.length;
        return res.status === 200 ? received : -res.status;
      }),
    ),
  );
  const whole = result.filter((n) => n === files.bytes).length;
  process.stdout.write(
    `files ${files.ids.length} downloads of ${files.bytes / 1024 / 1024} MiB at once [${label}]: ${whole} whole in ${((performance.now() - started) / 1000).toFixed(1)} s; RSS before → max (MB): ${Object.entries(max).map(([n, m]) => `${n} ${before[n] ?? '?'} → ${m}`).join(', ')}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`,
  );
  if (whole !== files.ids.length) throw new Error(`large downloads [${label}]: ${whole} of ${files.ids.length} whole (${result.join(', ')})`);
  return max;
}
