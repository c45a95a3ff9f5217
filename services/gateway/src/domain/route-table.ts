import { Services, type ServiceName } from '@switchyard/contracts';

/**
 * Which service owns which public path. Patterns are matched segment by segment: `*` is exactly one
 * segment, a trailing `**` is zero or more. The first matching rule wins, so specific rules come first.
 * `methods` limits a rule to those methods (all when absent).
 */
export interface RouteRule {
  readonly pattern: string;
  readonly service: ServiceName;
  readonly methods?: readonly string[];
  /**
   * A long-poll: the answer may wait long upstream, so the service is told when the client leaves (its
   * request is cut) instead of waiting on for nobody.
   */
  readonly waits?: boolean;
}

export const ROUTE_TABLE: readonly RouteRule[] = [
  // Exceptions nested under another service's prefix.
  { pattern: '/api/v4/teams/*/channels/**', service: Services.posts },
  { pattern: '/api/v4/teams/name/*/channels/**', service: Services.posts },
  { pattern: '/api/v4/users/*/teams/*/channels/**', service: Services.posts },
  { pattern: '/api/v4/users/*/channels/**', service: Services.posts },
  // Collapsed reply threads (mattermost-wire-3.md §3.10): thread memberships live with the posts.
  { pattern: '/api/v4/users/*/teams/*/threads/**', service: Services.posts },
  { pattern: '/api/v4/users/*/posts/*/reactions/**', service: Services.posts },
  { pattern: '/api/v4/posts/*/actions/**', service: Services.outgoingDispatch },
  { pattern: '/api/v4/teams/*/commands/**', service: Services.outgoingDispatch },
  // Statuses live with the sockets (mattermost-wire-3.md §3.1, docs/adr/0012).
  { pattern: '/api/v4/users/*/status', service: Services.realtime },
  { pattern: '/api/v4/users/status/ids', service: Services.realtime, methods: ['POST'] },
  { pattern: '/api/v4/teams/*/posts/search', service: Services.posts },
  // incoming-hooks
  { pattern: '/api/v4/hooks/incoming/**', service: Services.incomingHooks },
  { pattern: '/hooks/*', service: Services.incomingHooks, methods: ['POST'] },
  { pattern: '/hooks/*/posts/*', service: Services.incomingHooks, methods: ['PUT', 'DELETE'] },
  // outgoing-dispatch
  { pattern: '/api/v4/hooks/outgoing/**', service: Services.outgoingDispatch },
  { pattern: '/api/v4/actions/**', service: Services.outgoingDispatch },
  { pattern: '/api/v4/commands/**', service: Services.outgoingDispatch },
  { pattern: '/hooks/commands/*', service: Services.outgoingDispatch, methods: ['POST'] },
  { pattern: '/api/v4/system/integration_signing_key', service: Services.outgoingDispatch, methods: ['GET'] },
  // users-bots
  { pattern: '/api/v4/users/**', service: Services.usersBots },
  { pattern: '/api/v4/bots/**', service: Services.usersBots },
  { pattern: '/api/v4/teams/**', service: Services.usersBots },
  { pattern: '/api/v4/config/**', service: Services.usersBots },
  { pattern: '/api/v4/license/**', service: Services.usersBots },
  // posts
  { pattern: '/api/v4/channels/**', service: Services.posts },
  { pattern: '/api/v4/posts/**', service: Services.posts },
  { pattern: '/api/v4/reactions/**', service: Services.posts },
  { pattern: '/api/v4/emoji/**', service: Services.posts },
  // realtime: the event stream over HTTP (spec: "Event stream over HTTP")
  { pattern: '/api/v4/events', service: Services.realtime, methods: ['GET'], waits: true },
  // files (owned by posts, ADR 0022)
  { pattern: '/api/v4/files/**', service: Services.posts },
  { pattern: '/files/*/public', service: Services.posts, methods: ['GET', 'HEAD'] },
];

/**
 * Routes that work without a session (mattermost-wire.md §2): an invalid token is ignored there, and
 * when users-bots cannot be asked about a token the request still goes through without identity.
 */
export const SESSION_OPTIONAL: readonly RouteRule[] = [
  { pattern: '/hooks/*', service: Services.incomingHooks, methods: ['POST'] },
  // A hook managing its own posts: the key is the credential (README "Hook edits its posts").
  { pattern: '/hooks/*/posts/*', service: Services.incomingHooks, methods: ['PUT', 'DELETE'] },
  // A command's response_url: the unguessable id is the credential (mattermost-wire-2.md §2.2).
  { pattern: '/hooks/commands/*', service: Services.outgoingDispatch, methods: ['POST'] },
  // The trigger id authorises it (mattermost-wire.md §8), so integrations call it without a session.
  { pattern: '/api/v4/actions/dialogs/open', service: Services.outgoingDispatch, methods: ['POST'] },
  { pattern: '/api/v4/users/login', service: Services.usersBots, methods: ['POST'] },
  { pattern: '/api/v4/users/logout', service: Services.usersBots, methods: ['POST'] },
  { pattern: '/api/v4/users', service: Services.usersBots, methods: ['POST'] },
  // Clients read these before signing in (mattermost-wire-3.md §3.8).
  { pattern: '/api/v4/config/client', service: Services.usersBots, methods: ['GET'] },
  { pattern: '/api/v4/license/client', service: Services.usersBots, methods: ['GET'] },
  // A public file link: the hash is the credential (mattermost-wire-3.md §1.4).
  { pattern: '/files/*/public', service: Services.posts, methods: ['GET', 'HEAD'] },
];
