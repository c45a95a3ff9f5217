import type { ReactNode } from 'react';
import { BotsPage } from './features/bots/bots-page';
import { ChannelsPage } from './features/channel/channels-page';
import { IncomingHooksPage } from './features/incoming-hooks/incoming-hooks-page';
import { OutgoingHooksPage } from './features/outgoing-hooks/outgoing-hooks-page';
import { SystemConsolePage } from './features/system-console/system-console-page';

export interface Page {
  readonly path: string;
  render(params: Record<string, string>): ReactNode;
}

/** The app's pages by path (`:name` segments become params). */
export const pages: readonly Page[] = [
  { path: '/channels', render: () => <ChannelsPage /> },
  { path: '/channels/:team', render: (p) => <ChannelsPage teamName={p.team} /> },
  { path: '/channels/:team/:channel', render: (p) => <ChannelsPage teamName={p.team} channelName={p.channel} /> },
  { path: '/integrations/bots', render: () => <BotsPage /> },
  { path: '/integrations/incoming', render: () => <IncomingHooksPage /> },
  { path: '/integrations/outgoing', render: () => <OutgoingHooksPage /> },
  { path: '/admin', render: () => <SystemConsolePage /> },
];
