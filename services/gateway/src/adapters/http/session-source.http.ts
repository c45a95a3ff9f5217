import { InternalPaths, Services, type ResolvedSession } from '@switchyard/contracts';
import { isAppError } from '@switchyard/errors';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { SessionSource } from '../../domain/ports';

/** users-bots' `POST /internal/v1/auth/resolve {token}`: a session, or a 4xx error body for a bad token. */
export class HttpSessionSource implements SessionSource {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys) {
    this.as = serviceCredential(Services.gateway, secret);
  }

  public async resolve(token: string): Promise<ResolvedSession | undefined> {
    try {
      const session = await callJson<ResolvedSession>(this.transport, Services.usersBots, {
        method: 'POST',
        path: InternalPaths.resolveToken,
        as: this.as,
        body: { token },
      });
      return isResolvedSession(session) ? session : undefined;
    } catch (error) {
      // 401 (and any other refusal of the token itself) means "not a valid token"; 5xx and transport errors propagate.
      if (isAppError(error) && error.statusCode >= 400 && error.statusCode < 500) return undefined;
      throw error;
    }
  }
}

function isResolvedSession(value: unknown): value is ResolvedSession {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.userId === 'string' && v.userId !== '' && typeof v.sessionId === 'string' && typeof v.roles === 'string';
}
