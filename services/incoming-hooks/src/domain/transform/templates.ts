import type { TransformInput } from './transform-input';

export const TEMPLATE_NAMES = ['github', 'gitlab', 'alertmanager', 'grafana', 'sentry', 'json'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** How a vendor signs its requests (the hook's `transform_secret` is the key). */
export type SignatureScheme = 'github' | 'gitlab' | 'sentry';

export interface IntegrationBot {
  readonly username: string;
  readonly displayName: string;
  readonly description: string;
}

/** A built-in template's behaviour besides its expression (kept as data in `templates/<name>.jsonata`). */
export interface TemplateDefinition {
  readonly name: TemplateName;
  /** The vendor's event name of a request, what `only_events` / `exclude_events` match ('' when none). */
  event(input: TransformInput): string;
  readonly signature?: SignatureScheme;
  /** The integration's own bot (absent for `json`: it posts as the hook does). */
  readonly bot?: IntegrationBot;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const field = (body: unknown, name: string): unknown => (typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined);

/** Headers that name the event for the `json` template and custom expressions, first present wins. */
const GENERIC_EVENT_HEADERS = ['x-github-event', 'x-gitlab-event', 'sentry-hook-resource', 'x-event-key', 'x-event-type'];

export function genericEvent(input: TransformInput): string {
  for (const name of GENERIC_EVENT_HEADERS) {
    const value = input.headers[name];
    if (value !== undefined && value !== '') return value;
  }
  return '';
}

const bot = (username: string, displayName: string): IntegrationBot => ({ username, displayName, description: `Posts what ${displayName} sends to incoming webhooks (built-in template).` });

export const TEMPLATES: Readonly<Record<TemplateName, TemplateDefinition>> = {
  // X-GitHub-Event: push, pull_request, issues, workflow_run, release, ping, ...
  github: { name: 'github', event: (i) => str(i.headers['x-github-event']), signature: 'github', bot: bot('github', 'GitHub') },
  // object_kind: push, tag_push, merge_request, pipeline, ... (the X-Gitlab-Event header says "Push Hook")
  gitlab: { name: 'gitlab', event: (i) => str(field(i.body, 'object_kind')), signature: 'gitlab', bot: bot('gitlab', 'GitLab') },
  // the group's status: firing or resolved
  alertmanager: { name: 'alertmanager', event: (i) => str(field(i.body, 'status')), bot: bot('alertmanager', 'Alertmanager') },
  grafana: { name: 'grafana', event: (i) => str(field(i.body, 'status')), bot: bot('grafana', 'Grafana') },
  // Sentry-Hook-Resource: event_alert, issue, error, metric_alert, installation
  sentry: { name: 'sentry', event: (i) => str(i.headers['sentry-hook-resource']), signature: 'sentry', bot: bot('sentry', 'Sentry') },
  json: { name: 'json', event: genericEvent },
};

export function templateOf(name: string): TemplateDefinition | undefined {
  return Object.prototype.hasOwnProperty.call(TEMPLATES, name) ? TEMPLATES[name as TemplateName] : undefined;
}
