/**
 * RSS of the embedded runtime while BENCH_HOOK_UPLOADS (default 4) multipart hook requests of
 * BENCH_HOOK_UPLOAD_MB (default 64) MiB each (one `files` part, streamed) arrive at once. A one-off
 * measurement for issue 25 (hook bodies held whole vs spooled); BENCH_RUNTIME_DIST runs another build.
 *   node --conditions=source --import tsx scripts/bench-support/hook-upload-rss.ts
 */
import { loadavg } from 'node:os';
import { adminToken, must, rssMb, startEmbeddedProcess } from './target';

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_HOOK_UPLOADS ?? 4);
  const mb = Number(process.env.BENCH_HOOK_UPLOAD_MB ?? 64);
  const runtime = await startEmbeddedProcess();
  try {
    const url = runtime.url;
    const token = await adminToken(url);
    const suffix = Math.random().toString(36).slice(2, 10);
    const team = await must(url, 'POST', '/api/v4/teams', { name: `hookrss-${suffix}`, display_name: 'Hook RSS', type: 'O' }, token, 201);
    const channel = await must(url, 'POST', '/api/v4/channels', { team_id: team.id, name: `hookrss-${suffix}`, display_name: 'Hook RSS', type: 'O' }, token, 201);
    const hook = await must(url, 'POST', '/api/v4/hooks/incoming', { channel_id: channel.id, display_name: 'rss' }, token, 201);
    const boundary = 'hookrssboundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="payload"\r\n\r\n{"text":"big"}\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.bin"\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunk = new Uint8Array(1024 * 1024).fill(0x41);
    const body = (): ReadableStream<Uint8Array> => {
      let sent = -1;
      return new ReadableStream({
        pull(controller) {
          sent += 1;
          if (sent === 0) controller.enqueue(new Uint8Array(head));
          else if (sent <= mb) controller.enqueue(chunk);
          else if (sent === mb + 1) controller.enqueue(new Uint8Array(tail));
          else controller.close();
        },
      });
    };
    const before = rssMb(runtime.pid) ?? 0;
    let max = before;
    const timer = setInterval(() => (max = Math.max(max, rssMb(runtime.pid) ?? 0)), 100);
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: count }, async () => {
        const res = await fetch(`${url}/hooks/${String(hook.id)}?wait=true`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: body(), duplex: 'half' } as RequestInit);
        await res.arrayBuffer();
        return res.status;
      }),
    );
    clearInterval(timer);
    process.stdout.write(`hook uploads: ${count} × ${mb} MiB multipart at once: statuses ${statuses.join(',')} in ${((performance.now() - started) / 1000).toFixed(1)} s; embedded RSS ${before} → max ${max} MB; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  } finally {
    await runtime.stop();
  }
}

void main();
