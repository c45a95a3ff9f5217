import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { bootstrapAdmin, call, ROOT, startServices, type ServiceProcess } from './processes';
import { OwnServers, type MongoServer, type ServerName } from './own-servers';
import { ReadinessSampler } from './readiness-sampler';

/** The five services of the distributed runtime that hook and post writes go through. */
export const OUTAGE_SERVICES = ['users-bots', 'posts', 'incoming-hooks', 'outgoing-dispatch', 'gateway'] as const;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Write {
  readonly text: string;
  readonly via: 'hook' | 'post';
  acknowledged: boolean;
  /** How a write that was not acknowledged ended: `503 <error id>`, `500 <error id>`, `timeout`, `refused`. */
  outcome?: string;
  /** How long the write took to be answered (or to fail). */
  ms?: number;
}

/** What one drill printed (`DRILL <server>: {...}`). */
export interface OutageSummary {
  readonly server: ServerName;
  readonly down_ms: number;
  readonly attempted: number;
  readonly acknowledged: number;
  readonly acknowledged_hooks: number;
  readonly acknowledged_posts: number;
  readonly found: number;
  readonly lost: number;
  readonly refused_or_timed_out: number;
  /** Writes not acknowledged, by how they ended (`503 api.context.server_busy.app_error`: 12, `timeout`: 1). */
  readonly not_acknowledged_by_outcome: Record<string, number>;
  /** The longest a write that was not acknowledged waited for its answer (never a hang: bounded by the services' timeouts). */
  readonly slowest_not_acknowledged_ms: number;
  readonly recovered_ms_after_restart: number;
  readonly consumer_crashes_rejoined: number;
  /** Messages the services sent to a dead-letter topic during the drill (an outage must not dead-letter). */
  readonly dead_lettered: number;
  /** Distinct errors the services logged as failures (`request failed`, `incoming webhook failed`: 5xx) during the drill. */
  readonly unexpected_errors: string[];
  /** `/health/ready` polled every 500 ms while the server was down: non-200 answers per service, and the first one's delay (ADR 0025). */
  readonly readiness_while_down: { samples: number; unready: Record<string, number>; first_unready_ms: Record<string, number> };
}

/**
 * A drill world: the drill's OWN Kafka, MongoDB-wire and Redis (never the shared ones), the five services of
 * the distributed runtime on them (started from their built dist), a first admin, a channel and an incoming
 * hook. `run(server, downMs)` stops that server under hook and API-post load, starts it again with the same
 * data, and checks that every acknowledged write is found and that the same processes serve again.
 */
export class OutageDrill {
  public readonly servers: OwnServers;
  public processes = new Map<string, ServiceProcess>();
  public base = '';
  public admin = '';
  public channelId = '';
  public hookKey = '';

  public constructor(mongo: MongoServer, private readonly env: Record<string, string> = {}) {
    this.servers = new OwnServers(mongo);
  }

  /** Starts the servers and the services; returns how long the services took to be ready (printed). */
  public async setUp(serversTimeoutMs?: number): Promise<void> {
    await this.servers.start(serversTimeoutMs);
    const started = Date.now();
    const load = loadavg()[0] ?? 0;
    this.processes = await startServices(OUTAGE_SERVICES, {
      KAFKA_BROKERS: this.servers.env.KAFKA_BROKERS ?? '',
      MONGO_URL: this.servers.env.MONGO_URL ?? '',
      REDIS_URL: this.servers.env.REDIS_URL ?? '',
      KAFKA_TOPICS_FILE: join(ROOT, 'deploy/local/topics.txt'),
      INTERNAL_SECRET: randomBytes(24).toString('base64url'),
      LOG_LEVEL: 'warn',
      UPSTREAM_TIMEOUT_MS: '15000',
      METRICS_PORT: '0',
      ...this.env,
    });
    console.log(`DRILL services ready: ${OUTAGE_SERVICES.length} services in ${Date.now() - started} ms (load average ${load.toFixed(2)} at start)`);
    this.base = this.processes.get('gateway')?.url ?? '';
    this.admin = await bootstrapAdmin(this.base);
    const suffix = randomBytes(3).toString('hex');
    const team = await call(this.base, 'POST', '/api/v4/teams', { token: this.admin, body: { name: `outage${suffix}`, display_name: 'Outage', type: 'O' } });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const channel = await call(this.base, 'POST', '/api/v4/channels', { token: this.admin, body: { team_id: team.body.id, name: `outage-${suffix}`, display_name: 'Outage', type: 'O' } });
    assert.equal(channel.status, 201, JSON.stringify(channel.body));
    this.channelId = String(channel.body.id);
    const hook = await call(this.base, 'POST', '/api/v4/hooks/incoming', { token: this.admin, body: { channel_id: this.channelId, display_name: 'outage' } });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    this.hookKey = String(hook.body.id);
  }

  public async tearDown(): Promise<void> {
    for (const p of [...this.processes.values()].reverse()) await p.stop();
    this.servers.stopAll();
  }

  /** Every message of the channel (all pages). */
  public async channelMessages(): Promise<Set<string>> {
    const found = new Set<string>();
    for (let page = 0; page < 100; page++) {
      const res = await call(this.base, 'GET', `/api/v4/channels/${this.channelId}/posts?page=${page}&per_page=200`, { token: this.admin });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const posts = Object.values((res.body.posts ?? {}) as Record<string, { message: string }>);
      for (const p of posts) found.add(p.message);
      if (posts.length < 200) break;
    }
    return found;
  }

  /** Hook and post writers until `stop()`; each write remembers whether it was acknowledged, and if not how it ended. */
  private load(label: string): { writes: Write[]; stop: () => Promise<void> } {
    const writes: Write[] = [];
    let running = true;
    const writer = async (via: 'hook' | 'post'): Promise<void> => {
      for (let i = 0; running; i++) {
        const write: Write = { text: `${label} ${via} ${i} ${randomBytes(4).toString('hex')}`, via, acknowledged: false };
        writes.push(write);
        const started = Date.now();
        try {
          const res = await fetch(via === 'hook' ? `${this.base}/hooks/${this.hookKey}` : `${this.base}/api/v4/posts`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...(via === 'post' ? { authorization: `Bearer ${this.admin}` } : {}) },
            body: JSON.stringify(via === 'hook' ? { text: write.text } : { channel_id: this.channelId, message: write.text }),
            signal: AbortSignal.timeout(20_000),
          });
          const text = await res.text();
          write.acknowledged = via === 'hook' ? res.status === 200 && text === 'ok' : res.status === 201;
          if (!write.acknowledged) write.outcome = `${res.status} ${errorId(text)}`;
        } catch (error) {
          write.outcome = error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'refused';
        }
        write.ms = Date.now() - started;
        await sleep(write.acknowledged ? 50 : 250);
      }
    };
    const done = Promise.all([writer('hook'), writer('post')]);
    return {
      writes,
      stop: async () => {
        running = false;
        await done;
      },
    };
  }

  /**
   * Until a hook and a post both succeed again (bounded, each probe too): the processes recovered on their own.
   * When they do not, the error says what the last probes got and what each service last warned about.
   */
  private async waitRecovered(timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    const probe = (path: string, options: Parameters<typeof call>[3]): Promise<string> =>
      call(this.base, 'POST', path, { ...options, timeoutMs: 20_000 }).then(
        (res) => `${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
        (error: unknown) => `failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    let last = { hook: '', post: '' };
    while (Date.now() < until) {
      last = {
        hook: await probe(`/hooks/${this.hookKey}`, { body: { text: `recovery probe ${Date.now()}` } }),
        post: await probe('/api/v4/posts', { token: this.admin, body: { channel_id: this.channelId, message: `recovery probe ${Date.now()}` } }),
      };
      if (last.hook.startsWith('200 ') && last.post.startsWith('201 ')) return;
      await sleep(500);
    }
    const services = [...this.processes].map(([name, p]) => {
      const warnings = p.lines.filter((l) => l.level === 'warn' || l.level === 'error').slice(-4);
      return `${name}${p.ended ? ` (${p.ended})` : ''}: ${JSON.stringify(warnings).slice(0, 1_500)}`;
    });
    const servers = (['kafka', 'mongo', 'redis'] as const).map((name) => this.servers.describe(name));
    throw new Error(`not recovered after ${timeoutMs} ms; last hook probe ${last.hook}; last post probe ${last.post}\n${[...servers, ...services].join('\n')}`);
  }

  private logged(message: string): number {
    return [...this.processes.values()].flatMap((p) => p.lines).filter((l) => l.message === message).length;
  }

  /**
   * Stops `server` for `downMs` under load, starts it again, and checks: no acknowledged write lost, the same
   * processes (pids) serve again and answer `/health/live`. Prints and returns the counts.
   */
  public async run(server: ServerName, downMs: number): Promise<OutageSummary> {
    const pids = new Map([...this.processes].map(([n, p]) => [n, p.pid]));
    const crashesBefore = this.logged('event consumer crashed; rejoining');
    const deadLetteredBefore = this.logged('event dead-lettered');
    const linesBefore = new Map([...this.processes].map(([n, p]) => [n, p.lines.length]));
    const run = this.load(`${server}-outage`);
    // Load is flowing (writes acknowledged) before the outage, and again after the recovery: counted, not timed.
    const acknowledgedCount = (): number => run.writes.filter((w) => w.acknowledged).length;
    const sampler = new ReadinessSampler(new Map([...this.processes].map(([n, p]) => [n, p.url])));
    let stoppedAt = 0;
    let restartedAt = 0;
    let readiness: Awaited<ReturnType<ReadinessSampler['stop']>>;
    try {
      await untilAcknowledged(acknowledgedCount, 20, 60_000);
      stoppedAt = Date.now();
      await this.servers.stop(server);
      sampler.start();
      // The outage itself: the server stays down this long (the scenario, not a synchronisation).
      await sleep(Math.max(0, downMs - (Date.now() - stoppedAt)));
      readiness = await sampler.stop();
      await this.servers.restart(server);
      restartedAt = Date.now();
      await this.waitRecovered(120_000);
      await untilAcknowledged(acknowledgedCount, acknowledgedCount() + 20, 60_000);
    } finally {
      // Whatever failed above, the writers stop (a writer loop left running keeps the test file alive forever).
      await sampler.stop();
      await run.stop();
    }
    const recoveredAfterMs = Date.now() - restartedAt;
    // Acknowledged writes become readable (stored mode answers after the post exists; queued ones land shortly).
    const acknowledged = run.writes.filter((w) => w.acknowledged);
    let found = await this.channelMessages();
    const until = Date.now() + 60_000;
    while (acknowledged.some((w) => !found.has(w.text)) && Date.now() < until) {
      await sleep(1_000);
      found = await this.channelMessages();
    }
    const lost = acknowledged.filter((w) => !found.has(w.text));
    const outcomes: Record<string, number> = {};
    for (const w of run.writes) if (!w.acknowledged && w.outcome) outcomes[`${w.via} ${w.outcome}`] = (outcomes[`${w.via} ${w.outcome}`] ?? 0) + 1;
    const summary: OutageSummary = {
      server,
      down_ms: restartedAt - stoppedAt,
      attempted: run.writes.length,
      acknowledged: acknowledged.length,
      acknowledged_hooks: acknowledged.filter((w) => w.via === 'hook').length,
      acknowledged_posts: acknowledged.filter((w) => w.via === 'post').length,
      found: acknowledged.length - lost.length,
      lost: lost.length,
      refused_or_timed_out: run.writes.length - acknowledged.length,
      not_acknowledged_by_outcome: outcomes,
      slowest_not_acknowledged_ms: Math.max(0, ...run.writes.filter((w) => !w.acknowledged).map((w) => w.ms ?? 0)),
      recovered_ms_after_restart: recoveredAfterMs,
      consumer_crashes_rejoined: this.logged('event consumer crashed; rejoining') - crashesBefore,
      dead_lettered: this.logged('event dead-lettered') - deadLetteredBefore,
      unexpected_errors: [
        ...new Set(
          [...this.processes].flatMap(([n, p]) =>
            p.lines
              .slice(linesBefore.get(n) ?? 0)
              .filter((l) => l.message === 'request failed' || l.message === 'incoming webhook failed')
              .map((l) => `${n}: ${JSON.stringify(l.error).slice(0, 300)}`),
          ),
        ),
      ],
      readiness_while_down: readiness,
    };
    console.log(`DRILL ${server}: ${JSON.stringify(summary)}`);
    // A blip of a dependency every pod shares does not unready them all at once (ADR 0025): the gateway
    // never (it serves without Kafka and Redis), the others not before most of READINESS_GRACE_MS (20 s).
    assert.equal(readiness.unready.gateway ?? 0, 0, `the gateway went unready while ${server} was down`);
    for (const [name, ms] of Object.entries(readiness.first_unready_ms)) assert.ok(ms >= 15_000, `${name} went unready ${ms} ms into the ${server} outage (grace 20 s)`);
    assert.deepEqual(lost.map((w) => w.text), [], 'no acknowledged write is lost');
    assert.ok(acknowledged.length > 0);
    for (const [name, pid] of pids) assert.equal(this.processes.get(name)?.pid, pid, `${name} was not restarted`);
    for (const [name, p] of this.processes) {
      const live = await fetch(`${p.url}/health/live`);
      assert.equal(live.status, 200, `${name} live: ${await live.text()} ${JSON.stringify(p.lines.filter((l) => l.level === 'error').slice(-5))}`);
    }
    return summary;
  }
}

/** Until `count()` reaches `atLeast` (bounded). */
async function untilAcknowledged(count: () => number, atLeast: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (count() < atLeast) {
    if (Date.now() > until) throw new Error(`only ${count()} of ${atLeast} writes acknowledged within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** The Mattermost error id of an answer's body, `-` when it is not one. */
function errorId(text: string): string {
  try {
    const body = JSON.parse(text) as { id?: unknown };
    return typeof body.id === 'string' ? body.id : '-';
  } catch {
    return '-';
  }
}
