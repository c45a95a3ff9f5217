import type { ReactNode } from 'react';
import type { User } from '../../api/types';
import { ErrorText } from '../../ui/feedback';
import { Link } from '../../ui/router';
import { usePermissions } from '../session/use-permissions';
import { useSessionActions } from '../session/use-session';
import { pages } from '../../pages';

export interface NavItem {
  readonly to: string;
  readonly label: string;
  readonly show: boolean;
}

/** Header with the main navigation and sign-out, and the main region (the skip link's target). */
export function AppShell({ me, children }: { me: User; children: ReactNode }) {
  const { signOut } = useSessionActions();
  const { isAdmin } = usePermissions();
  const items: NavItem[] = [
    { to: '/channels', label: 'Channels', show: true },
    { to: '/people', label: 'People', show: true },
    { to: '/integrations/bots', label: 'Bots', show: true },
    { to: '/integrations/incoming', label: 'Incoming webhooks', show: true },
    { to: '/integrations/outgoing', label: 'Outgoing webhooks', show: true },
    { to: '/integrations/commands', label: 'Slash commands', show: true },
    { to: '/admin', label: 'System console', show: isAdmin },
  ];
  return (
    <>
      <a className="skip" href="#main">
        Skip to main content
      </a>
      <header className="top">
        <span className="brand">Switchyard</span>
        <nav aria-label="Main">
          <ul>
            {items
              .filter((i) => i.show && pages.some((p) => p.path === i.to))
              .map((i) => (
                <li key={i.to}>
                  <Link to={i.to}>{i.label}</Link>
                </li>
              ))}
          </ul>
        </nav>
        <div className="me">
          <span aria-label="Signed in as">@{me.username}</span>
          <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
          <ErrorText error={signOut.error} />
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
