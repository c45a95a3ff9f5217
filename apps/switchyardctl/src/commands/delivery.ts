import type { Command } from 'commander';
import type { ApiClient } from '../api-client';
import { formatTime, table } from '../output';
import { UsageError } from '../usage-error';
import type { CommandContext } from './context';

const PAGE_SIZE = 200;
const MAX_PAGES = 10_000;
const STATUSES = ['dead', 'failed', 'pending', 'delivered', 'all'] as const;
type StatusFilter = (typeof STATUSES)[number];

/** A delivery log entry of outgoing-dispatch (`GET /hooks/outgoing/{id}/deliveries`). */
export interface Delivery {
  readonly id: string;
  readonly hook_id: string;
  readonly post_id: string;
  readonly url: string;
  readonly status: string;
  readonly attempts: number;
  readonly last_status_code: number;
  readonly last_error: string;
  readonly create_at: number;
  readonly update_at: number;
  readonly event_type?: string;
}

interface Hook {
  readonly id: string;
}

async function allPages<T>(fetchPage: (page: number) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const batch = await fetchPage(page);
    out.push(...batch);
    if (batch.length < PAGE_SIZE) break;
  }
  return out;
}

/** The hooks to look at: the one named, or every outgoing webhook the caller may manage (an admin: all). */
async function hookIds(client: ApiClient, hook: string | undefined): Promise<string[]> {
  if (hook !== undefined) return [hook.trim()];
  const hooks = await allPages((page) => client.get<Hook[]>('/hooks/outgoing', { page, per_page: PAGE_SIZE }));
  return hooks.map((h) => h.id);
}

function parseSince(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const ms = /^\d{1,15}$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (!Number.isFinite(ms) || ms < 0) throw new UsageError(`--since: "${raw}" is neither an ISO date/time nor milliseconds since the epoch`);
  return ms;
}

/**
 * `delivery list|redeliver|redeliver-dead`: outgoing-dispatch's delivery log (outgoing webhook calls), through
 * its existing routes with the caller's permissions (an admin sees and re-queues every hook's): a dead
 * delivery (retries exhausted, blocked address, 410 Gone, hook gone) is queued again with a fresh retry
 * budget and the SAME delivery id (`webhook-id`), so a receiver that already handled it can tell.
 */
export function registerDeliveryCommands(program: Command, ctx: CommandContext): void {
  const delivery = program.command('delivery').description('outgoing webhook deliveries: list dead ones, re-queue them');

  delivery
    .command('list')
    .description('list deliveries (default: the dead ones) of every outgoing webhook, or of one')
    .option('--hook <hook-id>', 'only this outgoing webhook')
    .option('--status <status>', `${STATUSES.join(', ')} (default dead)`, 'dead')
    .option('--since <time>', 'only deliveries created at or after this time (ISO 8601 or epoch ms)')
    .action(async (options: { hook?: string; status: string; since?: string }, command: Command) => {
      if (!(STATUSES as readonly string[]).includes(options.status)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
      const status = options.status as StatusFilter;
      const since = parseSince(options.since);
      await ctx.run(command, async ({ client }, out) => {
        const found: Delivery[] = [];
        for (const hookId of await hookIds(client, options.hook)) {
          const log = await allPages((page) => client.get<Delivery[]>(`/hooks/outgoing/${encodeURIComponent(hookId)}/deliveries`, { page, per_page: PAGE_SIZE }));
          found.push(...log.filter((d) => (status === 'all' || d.status === status) && d.create_at >= since));
        }
        out.result(found, () =>
          found.length === 0
            ? [`no ${status === 'all' ? '' : `${status} `}deliveries`]
            : table(
                ['HOOK ID', 'DELIVERY ID', 'POST ID', 'STATUS', 'ATTEMPTS', 'LAST STATUS', 'CREATED', 'LAST ERROR'],
                found.map((d) => [d.hook_id, d.id, d.post_id, d.status, String(d.attempts), d.last_status_code ? String(d.last_status_code) : '-', formatTime(d.create_at) ?? '', d.last_error.slice(0, 80)]),
              ),
        );
      });
    });

  delivery
    .command('redeliver')
    .description('queue one delivery again now (same delivery id, fresh retry budget)')
    .argument('<hook-id>', 'the outgoing webhook')
    .argument('<delivery-id>', 'the delivery (from `delivery list`)')
    .action(async (hookId: string, deliveryId: string, _options: unknown, command: Command) => {
      await ctx.run(command, async ({ client }, out) => {
        const queued = await client.post<Delivery>(`/hooks/outgoing/${encodeURIComponent(hookId.trim())}/deliveries/${encodeURIComponent(deliveryId.trim())}/redeliver`);
        out.result(queued, () => [`queued delivery ${queued.id} of hook ${queued.hook_id} again (status ${queued.status})`]);
      });
    });

  delivery
    .command('redeliver-dead')
    .description('queue again every dead or failed delivery of every outgoing webhook (or of one), optionally only those created since a time')
    .option('--hook <hook-id>', 'only this outgoing webhook')
    .option('--since <time>', 'only deliveries created at or after this time (ISO 8601 or epoch ms)')
    .action(async (options: { hook?: string; since?: string }, command: Command) => {
      const since = parseSince(options.since);
      await ctx.run(command, async ({ client }, out) => {
        const queued: Delivery[] = [];
        for (const hookId of await hookIds(client, options.hook)) {
          queued.push(...(await client.request<Delivery[]>('POST', `/hooks/outgoing/${encodeURIComponent(hookId)}/deliveries/redeliver_failed`, { query: { since } })).body);
        }
        out.result(queued, () => [`queued ${queued.length} deliver${queued.length === 1 ? 'y' : 'ies'} again`, ...queued.map((d) => `  ${d.hook_id} ${d.id}`)]);
      });
    });
}
