import { SERVER_VERSION } from '@switchyard/contracts';
import type { SystemConfig } from '@switchyard/system-config';

/** The reference's client config: a flat map whose values are all strings (mattermost-wire-3.md §3.8). */
export type ClientConfig = Record<string, string>;

export interface ClientConfigFacts {
  readonly buildNumber: string;
  /** No user exists yet (the first sign-up becomes system admin). */
  readonly noAccounts: boolean;
}

const str = (value: boolean | number | string): string => String(value);

/** FileSettings belong to the files work; until they exist the reference's defaults apply. */
function fileSetting<T extends boolean | number>(config: SystemConfig, key: string, fallback: T): T {
  const section = (config as unknown as Record<string, Record<string, unknown> | undefined>).FileSettings;
  const value = section?.[key];
  return typeof value === typeof fallback ? (value as T) : fallback;
}

/** What anyone may read, signed in or not. */
export function limitedClientConfig(config: SystemConfig, facts: ClientConfigFacts): ClientConfig {
  const s = config.ServiceSettings;
  const p = config.PasswordSettings;
  return {
    Version: SERVER_VERSION,
    BuildNumber: facts.buildNumber,
    BuildDate: '',
    BuildHash: facts.buildNumber,
    BuildHashEnterprise: 'none',
    BuildEnterpriseReady: 'false',
    SiteURL: s.SiteURL,
    SiteName: config.TeamSettings.SiteName,
    ServiceEnvironment: 'production',
    DiagnosticId: '',
    TelemetryId: '',
    DiagnosticsEnabled: 'false',
    EnableSignUpWithEmail: str(config.EmailSettings.EnableSignUpWithEmail),
    EnableSignInWithEmail: str(config.EmailSettings.EnableSignInWithEmail),
    EnableSignInWithUsername: str(config.EmailSettings.EnableSignInWithUsername),
    EnableUserCreation: str(config.TeamSettings.EnableUserCreation),
    EnableOpenServer: str(config.TeamSettings.EnableOpenServer),
    EnableCustomEmoji: str(s.EnableCustomEmoji),
    EnableBotAccountCreation: str(s.EnableBotAccountCreation),
    EnableLdap: 'false',
    EnableSaml: 'false',
    EnableSignUpWithGitLab: 'false',
    EnableSignUpWithGoogle: 'false',
    EnableSignUpWithOffice365: 'false',
    EnableSignUpWithOpenId: 'false',
    EnableGuestAccounts: 'false',
    EnableMultifactorAuthentication: 'false',
    PasswordMinimumLength: str(p.MinimumLength),
    PasswordRequireLowercase: str(p.Lowercase),
    PasswordRequireUppercase: str(p.Uppercase),
    PasswordRequireNumber: str(p.Number),
    PasswordRequireSymbol: str(p.Symbol),
    DefaultClientLocale: 'en',
    AvailableLocales: '',
    WebsocketURL: '',
    WebsocketPort: '80',
    WebsocketSecurePort: '443',
    NoAccounts: str(facts.noAccounts),
  };
}

/** What a signed-in caller reads: the limited set plus the settings that shape posting and display. */
export function fullClientConfig(config: SystemConfig, facts: ClientConfigFacts): ClientConfig {
  const s = config.ServiceSettings;
  const t = config.TeamSettings;
  return {
    ...limitedClientConfig(config, facts),
    EnableIncomingWebhooks: str(s.EnableIncomingWebhooks),
    EnableOutgoingWebhooks: str(s.EnableOutgoingWebhooks),
    EnableCommands: str(s.EnableCommands),
    EnableOnlyAdminIntegrations: str(s.EnableOnlyAdminIntegrations),
    EnablePostUsernameOverride: str(s.EnablePostUsernameOverride),
    EnablePostIconOverride: str(s.EnablePostIconOverride),
    EnableUserAccessTokens: str(s.EnableUserAccessTokens),
    EnableUserStatuses: str(s.EnableUserStatuses),
    EnableUserDeactivation: str(t.EnableUserDeactivation),
    EnableOAuthServiceProvider: 'false',
    EnableLinkPreviews: 'false',
    EnableFileAttachments: str(fileSetting(config, 'EnableFileAttachments', true)),
    MaxFileSize: str(fileSetting(config, 'MaxFileSize', 104857600)),
    EnablePublicLink: 'false',
    EnableSVGs: 'false',
    EnableLatex: 'false',
    EnableInlineLatex: 'false',
    ExperimentalEnablePostMetadata: 'true',
    MaxPostSize: '16383',
    PostEditTimeLimit: str(s.PostEditTimeLimit),
    ShowEmailAddress: str(config.PrivacySettings.ShowEmailAddress),
    ShowFullName: str(config.PrivacySettings.ShowFullName),
    TeammateNameDisplay: t.TeammateNameDisplay,
    ExperimentalViewArchivedChannels: str(t.ExperimentalViewArchivedChannels),
    CollapsedThreads: s.CollapsedThreads,
    EnableUserTypingMessages: 'true',
    TimeBetweenUserTypingUpdatesMilliseconds: '5000',
    EnableChannelViewedMessages: str(s.EnableChannelViewedMessages),
    EnableCustomUserStatuses: 'false',
    EnableMobileFileUpload: 'true',
    EnableMobileFileDownload: 'true',
    ExperimentalTimezone: 'true',
    EnableReliableWebSockets: 'true',
    PostPriority: str(s.PostPriority),
    AllowPersistentNotifications: 'false',
    PostAcknowledgements: 'false',
    EnableLastActiveTime: 'true',
    EnableCustomGroups: 'false',
    AllowSyncedDrafts: 'false',
    UpgradedFromTE: 'false',
    InstallationDate: '',
  };
}

/** The unlicensed client licence (every caller). */
export function clientLicense(): ClientConfig {
  return { IsLicensed: 'false' };
}
