/** Every switch the requirements name, with what it does in one sentence. */
export interface Setting {
  readonly section: 'ServiceSettings' | 'RateLimitSettings';
  readonly key: string;
  readonly label: string;
  readonly help: string;
  readonly kind: 'boolean' | 'number' | 'text';
}

export const SETTINGS: readonly Setting[] = [
  { section: 'ServiceSettings', key: 'SiteURL', kind: 'text', label: 'Site URL', help: 'The address users reach this server at (https://chat.example.com). Custom slash commands and links in notifications need it; the embedded runtime starts with its listen address.' },
  { section: 'ServiceSettings', key: 'EnableBotAccountCreation', kind: 'boolean', label: 'Enable bot account creation', help: 'Lets users with the permission create bot accounts here and through the REST API (plugins can always create bots).' },
  { section: 'ServiceSettings', key: 'EnableIncomingWebhooks', kind: 'boolean', label: 'Enable incoming webhooks', help: 'Lets integrations post messages by sending JSON to an incoming webhook address.' },
  { section: 'ServiceSettings', key: 'EnableOutgoingWebhooks', kind: 'boolean', label: 'Enable outgoing webhooks', help: 'Sends matching messages from public channels to the callback URLs of outgoing webhooks.' },
  { section: 'ServiceSettings', key: 'EnablePostUsernameOverride', kind: 'boolean', label: 'Enable integrations to override usernames', help: 'Lets webhooks show a sender name of their choosing on their posts (the BOT label stays).' },
  { section: 'ServiceSettings', key: 'EnablePostIconOverride', kind: 'boolean', label: 'Enable integrations to override profile picture icons', help: 'Lets webhooks show a profile picture of their choosing on their posts.' },
  { section: 'ServiceSettings', key: 'DisableBotsWhenOwnerIsDeactivated', kind: 'boolean', label: 'Disable bot accounts when owner is deactivated', help: 'When a user is deactivated, the bots they own are disabled too; off, the bots keep working.' },
  { section: 'ServiceSettings', key: 'EnableUserAccessTokens', kind: 'boolean', label: 'Enable personal access tokens', help: 'Lets users with the permission create access tokens for scripts; bot tokens work either way.' },
  { section: 'ServiceSettings', key: 'AllowedUntrustedInternalConnections', kind: 'text', label: 'Allow untrusted internal connections to', help: 'Space-separated hosts, addresses or subnets on private networks that outgoing webhooks and interactive actions may call; all other internal addresses are refused.' },
  { section: 'RateLimitSettings', key: 'Enable', kind: 'boolean', label: 'Enable rate limiting', help: 'Limits how many API requests each client may make; over the limit, requests are answered 429 with X-RateLimit headers.' },
  { section: 'RateLimitSettings', key: 'PerSec', kind: 'number', label: 'Maximum queries per second', help: 'The steady rate each client may keep up when rate limiting is on.' },
  { section: 'RateLimitSettings', key: 'MaxBurst', kind: 'number', label: 'Maximum burst size', help: 'How many requests over that rate a client may make at once before being limited.' },
];
