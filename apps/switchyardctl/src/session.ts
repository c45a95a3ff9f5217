import { ApiClient, ApiError, CliErrorIds } from './api-client';
import { UsageError } from './usage-error';

export const DEFAULT_URL = 'http://127.0.0.1:8065';

/** The global options after commander parsed them (flags only; the environment is merged in `openSession`). */
export interface GlobalOptions {
  readonly url?: string;
  readonly token?: string;
  readonly login?: string;
  readonly password?: string;
  readonly json?: boolean;
}

export interface Environment {
  readonly SWITCHYARD_URL?: string;
  readonly SWITCHYARD_TOKEN?: string;
  readonly SWITCHYARD_PASSWORD?: string;
  /** KAFKA_BROKERS, KAFKA_SSL*, KAFKA_SASL_*, KAFKA_NAMESPACE: the dead-letter commands' connection. */
  readonly [kafkaSetting: `KAFKA_${string}`]: string | undefined;
  /** BACKUP_MONGO_URLS, BACKUP_S3_ACCESS_KEY_ID, BACKUP_S3_SECRET_ACCESS_KEY: cluster-backup / cluster-restore. */
  readonly [backupSetting: `BACKUP_${string}`]: string | undefined;
}

export interface Session {
  readonly client: ApiClient;
  /** Ends a session the CLI opened with --login (best effort); a given token is left alone. */
  close(): Promise<void>;
}

/**
 * Builds an authenticated client. Flags win over the environment: `--token` (or SWITCHYARD_TOKEN) is used as
 * the bearer token; `--login` with `--password` (or SWITCHYARD_PASSWORD) signs in through POST /users/login and
 * uses the `Token` response header. Secrets are never echoed.
 */
export async function openSession(options: GlobalOptions, env: Environment, userAgent: string): Promise<Session> {
  const baseUrl = options.url ?? nonEmpty(env.SWITCHYARD_URL) ?? DEFAULT_URL;
  const flagToken = nonEmpty(options.token);
  const login = nonEmpty(options.login);
  const flagPassword = options.password;

  if (flagToken && login) throw new UsageError('use either --token or --login, not both');
  if (flagPassword !== undefined && !login) throw new UsageError('--password needs --login');

  if (login) {
    const password = flagPassword ?? env.SWITCHYARD_PASSWORD;
    if (password === undefined || password === '') {
      throw new UsageError('--login needs a password: pass --password or set SWITCHYARD_PASSWORD');
    }
    const client = new ApiClient({ baseUrl, userAgent });
    const response = await client.request<unknown>('POST', '/users/login', {
      body: { login_id: login, password, token: '', deviceId: '' },
    });
    const sessionToken = response.headers.get('token');
    if (!sessionToken) {
      throw new ApiError(CliErrorIds.missingToken, 'the server accepted the login but sent no Token header', response.status);
    }
    client.setToken(sessionToken);
    return {
      client,
      close: async () => {
        await client.post('/users/logout').catch(() => undefined);
        client.setToken(undefined);
      },
    };
  }

  const token = flagToken ?? nonEmpty(env.SWITCHYARD_TOKEN);
  if (!token) {
    throw new UsageError('no credentials: pass --token (or set SWITCHYARD_TOKEN), or --login with --password (or SWITCHYARD_PASSWORD)');
  }
  return { client: new ApiClient({ baseUrl, token, userAgent }), close: async () => undefined };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
