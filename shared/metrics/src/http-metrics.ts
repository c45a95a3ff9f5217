import { histogram } from './registry';

const requests = () =>
  histogram('switchyard_http_request_duration_seconds', 'HTTP requests served, by service, route template, method and status code (count = requests)', ['service', 'route', 'method', 'status_code']);

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** `route` must be a template (`/api/v4/users/:user_id`) or `unmatched`, never the raw path. */
export function observeHttpRequest(service: string, route: string, method: string, status: number, seconds: number): void {
  requests().observe({ service, route, method: METHODS.has(method) ? method : 'OTHER', status_code: String(status) }, seconds);
}
