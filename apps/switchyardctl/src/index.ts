export { runCli, ExitCode, type RunOptions } from './cli';
export { ApiClient, ApiError, CliErrorIds, isApiError, type ApiClientOptions } from './api-client';
export { resolveUser, looksLikeId } from './resolve-user';
export { openSession, DEFAULT_URL, type GlobalOptions, type Environment, type Session } from './session';
export { UsageError, isUsageError } from './usage-error';
export type { User, Bot, UserAccessToken } from './types';
