import type { ServiceName } from '@switchyard/contracts';
import type { RouteRule } from './route-table';

interface CompiledRule {
  readonly pattern: string;
  readonly segments: readonly string[];
  readonly rest: boolean;
  readonly methods?: ReadonlySet<string>;
  readonly service: ServiceName;
  readonly waits: boolean;
}

export interface RouteMatch {
  readonly service: ServiceName;
  /** The rule's pattern (`/api/v4/users/**`): the gateway's request metric labels the request with it. */
  readonly pattern: string;
  readonly sessionOptional: boolean;
  /** A long-poll (RouteRule.waits): the service is told when the client leaves. */
  readonly waits: boolean;
}

function compile(rule: RouteRule): CompiledRule {
  const parts = rule.pattern.split('/').slice(1);
  const rest = parts[parts.length - 1] === '**';
  return {
    pattern: rule.pattern,
    segments: rest ? parts.slice(0, -1) : parts,
    rest,
    service: rule.service,
    waits: rule.waits === true,
    ...(rule.methods ? { methods: new Set(rule.methods) } : {}),
  };
}

function matches(rule: CompiledRule, method: string, segments: readonly string[]): boolean {
  if (rule.methods && !rule.methods.has(method)) return false;
  if (rule.rest ? segments.length < rule.segments.length : segments.length !== rule.segments.length) return false;
  return rule.segments.every((expected, i) => {
    const actual = segments[i];
    return actual !== undefined && actual !== '' && (expected === '*' || expected === actual);
  });
}

/** Path segments of `/a/b?x` without the query; undefined for paths a router could resolve elsewhere. */
export function pathSegments(pathAndQuery: string): string[] | undefined {
  const q = pathAndQuery.indexOf('?');
  const path = q >= 0 ? pathAndQuery.slice(0, q) : pathAndQuery;
  if (!path.startsWith('/')) return undefined;
  const segments = path.split('/').slice(1);
  if (segments.some((s) => s === '.' || s === '..')) return undefined;
  // A trailing slash (`/api/v4/users/`) is the same resource to a router.
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  return segments;
}

/** Matches a request against a route table; the first rule wins. */
export class RouteMatcher {
  private readonly rules: readonly CompiledRule[];
  private readonly optional: readonly CompiledRule[];

  public constructor(table: readonly RouteRule[], sessionOptional: readonly RouteRule[]) {
    this.rules = table.map(compile);
    this.optional = sessionOptional.map(compile);
  }

  public match(method: string, pathAndQuery: string): RouteMatch | undefined {
    const segments = pathSegments(pathAndQuery);
    if (!segments) return undefined;
    const rule = this.rules.find((r) => matches(r, method, segments));
    if (!rule) return undefined;
    return { service: rule.service, pattern: rule.pattern, sessionOptional: this.optional.some((r) => matches(r, method, segments)), waits: rule.waits };
  }
}
