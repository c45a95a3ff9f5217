import { SERVER_MAJOR_VERSION } from '@switchyard/contracts';

/**
 * The Mattermost-compatible config document (PascalCase sections), with the reference's defaults
 * (§11) and Switchyard's extension keys. Owned by users-bots; every service keeps a live copy.
 */
export const INCOMING_WEBHOOK_ACK_MODES = ['stored', 'queued'] as const;
/** Standard Webhooks signing: `v1` (HMAC-SHA256) or `v1a` (Ed25519). */
export const SIGNING_ALGORITHMS = ['hmac-sha256', 'ed25519'] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];
export type IncomingWebhookAckMode = (typeof INCOMING_WEBHOOK_ACK_MODES)[number];
export const COLLAPSED_THREADS_MODES = ['disabled', 'default_on', 'default_off', 'always_on'] as const;
export type CollapsedThreadsMode = (typeof COLLAPSED_THREADS_MODES)[number];

export interface SystemConfig {
  ServiceSettings: {
    SiteURL: string;
    EnableIncomingWebhooks: boolean;
    EnableOutgoingWebhooks: boolean;
    /** Custom slash commands (create, list, execute: 501 `api.command.disabled.app_error` when off). */
    EnableCommands: boolean;
    /** Deprecated in the reference (a one-time permission migration); false lets team members manage their own commands (ADR 0008). */
    EnableOnlyAdminIntegrations: boolean;
    EnablePostUsernameOverride: boolean;
    EnablePostIconOverride: boolean;
    EnableBotAccountCreation: boolean;
    DisableBotsWhenOwnerIsDeactivated: boolean;
    EnableUserAccessTokens: boolean;
    AllowedUntrustedInternalConnections: string;
    OutgoingIntegrationRequestsTimeout: number;
    MaximumPayloadSizeBytes: number;
    PostEditTimeLimit: number;
    EnableDeveloper: boolean;
    EnableAPIUserDeletion: boolean;
    EnableAPIPostDeletion: boolean;
    ExperimentalStrictCSRFEnforcement: boolean;
    SessionLengthWebInHours: number;
    SessionCacheInMinutes: number;
    MaximumLoginAttempts: number;
    PostPriority: boolean;
    IntegrationSigningSecret: string;
    /** How action callbacks, dialogs and slash commands are signed: `hmac-sha256` (`v1`, default) or `ed25519` (`v1a`). */
    IntegrationSigningAlgorithm: SigningAlgorithm;
    /**
     * When `POST /hooks/{key}` answers: `stored` (every created post is readable through the API, as the
     * reference) or `queued` (the create commands are durably on the bus; the posts appear shortly after).
     */
    IncomingWebhookAckMode: IncomingWebhookAckMode;
    /** `GET /emoji` and the emoji routes: 501 `api.emoji.disabled.app_error` when off. */
    EnableCustomEmoji: boolean;
    /** Statuses routes: 404 `api.status.user_not_found.app_error` when off. */
    EnableUserStatuses: boolean;
    /** `channel_viewed` events on `POST /channels/members/{id}/view`. */
    EnableChannelViewedMessages: boolean;
    /** `disabled`, `default_on`, `default_off` or `always_on` (the reference's default since 7.0). */
    CollapsedThreads: CollapsedThreadsMode;
    /**
     * 11.2: every incoming hook is locked to its channel (`channel_locked` forced true on create and
     * update; a post naming another channel is refused with 403 `web.incoming_webhook.channel_locked.app_error`).
     */
    EnforceIncomingWebhookChannelLocking: boolean;
    /**
     * 12.0's rule: posts made with a user session or a personal access token of a human lose
     * `from_webhook`, `override_username` and `override_icon_url` (silently; the post is still created).
     * Bots, incoming hooks and slash commands keep them. Defaults to on from reported version 12.
     */
    StripIntegrationPropsFromUserPosts: boolean;
  };
  TeamSettings: {
    SiteName: string;
    EnableUserCreation: boolean;
    EnableOpenServer: boolean;
    EnableUserDeactivation: boolean;
    MaxUsersPerTeam: number;
    /** Seconds without activity before a connected user becomes `away`. */
    UserStatusAwayTimeout: number;
    TeammateNameDisplay: string;
    ExperimentalViewArchivedChannels: boolean;
  };
  EmailSettings: {
    EnableSignUpWithEmail: boolean;
    EnableSignInWithEmail: boolean;
    EnableSignInWithUsername: boolean;
  };
  PasswordSettings: {
    MinimumLength: number;
    Lowercase: boolean;
    Number: boolean;
    Uppercase: boolean;
    Symbol: boolean;
  };
  PrivacySettings: {
    ShowEmailAddress: boolean;
    ShowFullName: boolean;
  };
  RateLimitSettings: {
    Enable: boolean;
    PerSec: number;
    MaxBurst: number;
    MemoryStoreSize: number;
    VaryByRemoteAddr: boolean;
    VaryByUser: boolean;
    VaryByHeader: string;
    IncomingWebhookPerSec: number;
    IncomingWebhookMaxBurst: number;
    /**
     * Switchyard's own keys: deliveries per second one outgoing hook sends (per dispatcher instance), plus a
     * burst reserve; the excess waits durably (never dropped). 0 = no limit (the default, as for incoming hooks:
     * a busy hook with several URLs sends well over a thousand deliveries a second in the outgoing benchmark).
     */
    OutgoingWebhookPerSec: number;
    OutgoingWebhookMaxBurst: number;
  };
  DeliverySettings: {
    RetryBackoffSeconds: number[];
    JitterPercent: number;
    BreakerMinRequests: number;
    BreakerWindowSeconds: number;
    BreakerErrorPercent: number;
    BreakerResetSeconds: number;
    SecretOverlapMinutes: number;
    /**
     * Switchyard's own key (the spec names no threshold): an outgoing hook whose newest this many deliveries
     * are all `dead` is disabled, as on a 410 (0 = never). Default 10.
     */
    DisableAfterDeadDeliveries: number;
    /**
     * Switchyard's own key: how long (seconds) a delivery of a hook hearing more than `posted` waits for an
     * earlier one of its (hook, channel, URL) that is being retried, before it goes out of order anyway
     * (0 = no waiting: only first attempts are ordered). Default 3600.
     */
    OrderHoldSeconds: number;
  };
  /** Event cursors (spec: "Event cursor"): how long a cursor can be resumed. */
  EventSettings: {
    /** Hours; 0 = only the realtime replicas' in-memory buffer bounds resumes. */
    RetentionHours: number;
  };
  LogSettings: {
    EnableWebhookDebugging: boolean;
    ConsoleLevel: string;
  };
  /**
   * The Prometheus listener, as the reference's MetricsSettings. The embedded runtime follows Enable and
   * ListenAddress live; the env (METRICS_ENABLED, METRICS_PORT / METRICS_LISTEN_ADDRESS) overrides each
   * key it sets. Distributed services keep one listener each, set by the env (docs/operations.md).
   */
  MetricsSettings: {
    /** On by default (the reference: false): the listener is separate from the public port. */
    Enable: boolean;
    /** Accepted for compatibility; Node.js has no block profiler, so it changes nothing. */
    BlockProfileRate: number;
    /** `[host]:port`, default `:9064` (the reference's `:8067` is the distributed posts service's port; 9064 is next to, not in, the services' 9065-9070). */
    ListenAddress: string;
  };
  /** Files (mattermost-wire-3.md §1.7): where uploads are stored and how large they may be. */
  FileSettings: {
    EnableFileAttachments: boolean;
    /** Bytes per file and, in practice, per upload request. */
    MaxFileSize: number;
    /** `local` (a directory; relative paths are under DATA_DIR in the embedded runtime) or `amazons3`. */
    DriverName: string;
    Directory: string;
    EnablePublicLink: boolean;
    /** Secret (masked in GET /config): salts public-link hashes. */
    PublicLinkSalt: string;
    AmazonS3AccessKeyId: string;
    /** Secret (masked in GET /config). */
    AmazonS3SecretAccessKey: string;
    AmazonS3Bucket: string;
    AmazonS3PathPrefix: string;
    AmazonS3Region: string;
    /** Host[:port], no scheme. */
    AmazonS3Endpoint: string;
    AmazonS3SSL: boolean;
    AmazonS3RequestTimeoutMilliseconds: number;
  };
}

export function defaultSystemConfig(): SystemConfig {
  return {
    ServiceSettings: {
      SiteURL: '',
      EnableIncomingWebhooks: true,
      EnableOutgoingWebhooks: true,
      EnableCommands: true,
      EnableOnlyAdminIntegrations: true,
      EnablePostUsernameOverride: false,
      EnablePostIconOverride: false,
      EnableBotAccountCreation: false,
      DisableBotsWhenOwnerIsDeactivated: true,
      EnableUserAccessTokens: false,
      AllowedUntrustedInternalConnections: '',
      OutgoingIntegrationRequestsTimeout: 30,
      MaximumPayloadSizeBytes: 300000,
      PostEditTimeLimit: -1,
      EnableDeveloper: false,
      EnableAPIUserDeletion: false,
      EnableAPIPostDeletion: false,
      ExperimentalStrictCSRFEnforcement: false,
      SessionLengthWebInHours: 720,
      SessionCacheInMinutes: 10,
      MaximumLoginAttempts: 10,
      PostPriority: true,
      IntegrationSigningSecret: '',
      IntegrationSigningAlgorithm: 'hmac-sha256',
      IncomingWebhookAckMode: 'stored',
      EnableCustomEmoji: true,
      EnableUserStatuses: true,
      EnableChannelViewedMessages: true,
      CollapsedThreads: 'always_on',
      EnforceIncomingWebhookChannelLocking: false,
      StripIntegrationPropsFromUserPosts: SERVER_MAJOR_VERSION >= 12,
    },
    TeamSettings: {
      SiteName: 'Switchyard',
      EnableUserCreation: true,
      EnableOpenServer: false,
      EnableUserDeactivation: false,
      MaxUsersPerTeam: 50,
      UserStatusAwayTimeout: 300,
      TeammateNameDisplay: 'username',
      ExperimentalViewArchivedChannels: true,
    },
    EmailSettings: { EnableSignUpWithEmail: true, EnableSignInWithEmail: true, EnableSignInWithUsername: true },
    PasswordSettings: { MinimumLength: 8, Lowercase: false, Number: false, Uppercase: false, Symbol: false },
    PrivacySettings: { ShowEmailAddress: true, ShowFullName: true },
    RateLimitSettings: {
      Enable: false,
      PerSec: 10,
      MaxBurst: 100,
      MemoryStoreSize: 10000,
      VaryByRemoteAddr: true,
      VaryByUser: false,
      VaryByHeader: '',
      IncomingWebhookPerSec: 0,
      IncomingWebhookMaxBurst: 0,
      OutgoingWebhookPerSec: 0,
      OutgoingWebhookMaxBurst: 0,
    },
    DeliverySettings: {
      RetryBackoffSeconds: [5, 30, 120, 600, 1800, 3600, 10800, 21600, 43200],
      JitterPercent: 20,
      BreakerMinRequests: 20,
      BreakerWindowSeconds: 10,
      BreakerErrorPercent: 50,
      BreakerResetSeconds: 30,
      SecretOverlapMinutes: 1440,
      DisableAfterDeadDeliveries: 10,
      OrderHoldSeconds: 3600,
    },
    EventSettings: { RetentionHours: 24 },
    LogSettings: { EnableWebhookDebugging: true, ConsoleLevel: 'INFO' },
    MetricsSettings: { Enable: true, BlockProfileRate: 0, ListenAddress: ':9064' },
    FileSettings: {
      EnableFileAttachments: true,
      MaxFileSize: 104857600,
      DriverName: 'local',
      Directory: './data/',
      EnablePublicLink: false,
      PublicLinkSalt: '',
      AmazonS3AccessKeyId: '',
      AmazonS3SecretAccessKey: '',
      AmazonS3Bucket: '',
      AmazonS3PathPrefix: '',
      AmazonS3Region: '',
      AmazonS3Endpoint: 's3.amazonaws.com',
      AmazonS3SSL: true,
      AmazonS3RequestTimeoutMilliseconds: 30000,
    },
  };
}

/** Keys whose values `GET /config` masks. */
export const SECRET_KEYS: ReadonlyArray<readonly [keyof SystemConfig, string]> = [
  ['ServiceSettings', 'IntegrationSigningSecret'],
  ['FileSettings', 'PublicLinkSalt'],
  ['FileSettings', 'AmazonS3SecretAccessKey'],
];
export const SECRET_MASK = '********************************';
