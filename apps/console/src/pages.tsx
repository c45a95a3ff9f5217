import { lazy, type ReactNode } from 'react';

// Each area is its own chunk, loaded on first visit: the sign-in page needs none of them.
const BotsPage = lazy(() => import('./features/bots/bots-page').then((m) => ({ default: m.BotsPage })));
const CommandsPage = lazy(() => import('./features/slash-commands/commands-page').then((m) => ({ default: m.CommandsPage })));
const ChannelsPage = lazy(() => import('./features/channel/channels-page').then((m) => ({ default: m.ChannelsPage })));
const IncomingHooksPage = lazy(() => import('./features/incoming-hooks/incoming-hooks-page').then((m) => ({ default: m.IncomingHooksPage })));
const OutgoingHooksPage = lazy(() => import('./features/outgoing-hooks/outgoing-hooks-page').then((m) => ({ default: m.OutgoingHooksPage })));
const PeoplePage = lazy(() => import('./features/people/people-page').then((m) => ({ default: m.PeoplePage })));
const SystemConsolePage = lazy(() => import('./features/system-console/system-console-page').then((m) => ({ default: m.SystemConsolePage })));

export interface Page {
  readonly path: string;
  render(params: Record<string, string>): ReactNode;
}

/** The app's pages by path (`:name` segments become params). */
export const pages: readonly Page[] = [
  { path: '/', render: () => <ChannelsPage /> },
  { path: '/channels', render: () => <ChannelsPage /> },
  { path: '/channels/:team', render: (p) => <ChannelsPage teamName={p.team} /> },
  { path: '/channels/:team/:channel', render: (p) => <ChannelsPage teamName={p.team} channelName={p.channel} /> },
  { path: '/integrations/bots', render: () => <BotsPage /> },
  { path: '/integrations/incoming', render: () => <IncomingHooksPage /> },
  { path: '/integrations/outgoing', render: () => <OutgoingHooksPage /> },
  { path: '/integrations/commands', render: () => <CommandsPage /> },
  { path: '/people', render: () => <PeoplePage /> },
  { path: '/admin', render: () => <SystemConsolePage /> },
];
