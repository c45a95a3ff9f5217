import type { Envelope } from './envelope';

/** config.events: the full config after a change; services replace their live copy. */
export type ConfigUpdatedEvent = Envelope<'config.updated', { readonly config: Record<string, unknown> }>;
export const CONFIG_EVENT_KEY = 'config';
