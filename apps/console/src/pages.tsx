import type { ReactNode } from 'react';
import { BotsPage } from './features/bots/bots-page';

export interface Page {
  readonly path: string;
  render(params: Record<string, string>): ReactNode;
}

/** The app's pages by path (`:name` segments become params). */
export const pages: readonly Page[] = [{ path: '/integrations/bots', render: () => <BotsPage /> }];
