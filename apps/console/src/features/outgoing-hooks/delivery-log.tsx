import { useState, type FormEvent } from 'react';
import type { Delivery } from '../../api/types';
import { EmptyState, ErrorText, Loading } from '../../ui/feedback';
import { TextField } from '../../ui/field';
import { useDeliveries, useOutgoingHookActions } from './use-outgoing-hooks';

const STATUS_WORDS: Readonly<Record<string, string>> = {
  pending: 'Waiting',
  delivered: 'Delivered',
  failed: 'Failed, will retry',
  dead: 'Failed, gave up',
};

function localInputValue(ms: number): string {
  const d = new Date(ms - new Date().getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/** Every call to the hook's callback URLs: status, attempts, latency and last error; redeliver one or recover all failed since a time. */
export function DeliveryLog({ hookId }: { hookId: string }) {
  const deliveries = useDeliveries(hookId, true);
  const { redeliver, recoverFailed } = useOutgoingHookActions();
  const [since, setSince] = useState(() => localInputValue(Date.now() - 3_600_000));
  const recover = (event: FormEvent) => {
    event.preventDefault();
    const ms = new Date(since).getTime();
    if (!Number.isNaN(ms)) recoverFailed.mutate({ hookId, since: ms });
  };
  return (
    <section className="details" aria-label="Delivery log">
      <h3>Delivery log</h3>
      {deliveries.isPending ? <Loading label="Loading deliveries…" /> : null}
      <ErrorText error={deliveries.error} />
      {deliveries.data && deliveries.data.length === 0 ? <EmptyState title="No deliveries yet.">Post a message that matches this webhook; each call to a callback URL appears here.</EmptyState> : null}
      {deliveries.data && deliveries.data.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">URL</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Latency</th>
                <th scope="col">Last error</th>
                <th scope="col">Event</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((d) => (
                <DeliveryRow key={d.id} delivery={d} onRedeliver={() => redeliver.mutate({ hookId, deliveryId: d.id })} pending={redeliver.isPending && redeliver.variables.deliveryId === d.id} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <ErrorText error={redeliver.error} />
      <form onSubmit={recover} className="inline-form" aria-label="Recover failed deliveries">
        <TextField label="Recover failed deliveries since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} />
        <button type="submit" disabled={recoverFailed.isPending}>
          Recover failed
        </button>
      </form>
      {recoverFailed.data ? <p role="status">{recoverFailed.data.length === 1 ? '1 delivery queued again.' : `${recoverFailed.data.length} deliveries queued again.`}</p> : null}
      <ErrorText error={recoverFailed.error} />
    </section>
  );
}

function DeliveryRow({ delivery: d, onRedeliver, pending }: { delivery: Delivery; onRedeliver: () => void; pending: boolean }) {
  return (
    <tr>
      <td>{new Date(d.create_at).toLocaleString()}</td>
      <td className="mono">{d.url}</td>
      <td>
        {STATUS_WORDS[d.status] ?? d.status}
        {d.last_status_code ? ` (HTTP ${d.last_status_code})` : ''}
      </td>
      <td>{d.attempts}</td>
      <td>{d.attempts > 0 ? `${d.last_latency_ms} ms` : '—'}</td>
      <td>{d.last_error || '—'}</td>
      <td className="mono">{d.event_type || 'posted'}</td>
      <td>
        {d.status !== 'pending' ? (
          <button type="button" onClick={onRedeliver} disabled={pending}>
            Redeliver
          </button>
        ) : null}
      </td>
    </tr>
  );
}
