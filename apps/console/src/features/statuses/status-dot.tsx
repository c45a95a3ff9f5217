import type { StatusValue } from './use-statuses';

const WORDS: Readonly<Record<StatusValue, string>> = { online: 'Online', away: 'Away', dnd: 'Do not disturb', offline: 'Offline', ooo: 'Out of office' };

/** A user's status beside their name: a coloured dot with the status in words for screen readers and on hover. */
export function StatusDot({ status }: { status: StatusValue | undefined }) {
  if (!status) return null;
  const words = WORDS[status] ?? status;
  return <span className={`status-dot status-${status}`} role="img" aria-label={words} title={words} />;
}
