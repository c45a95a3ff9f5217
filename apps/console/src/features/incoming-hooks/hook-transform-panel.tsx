import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../api/client';
import type { IncomingHook } from '../../api/types';
import { ErrorText } from '../../ui/feedback';
import { SelectField, TextArea, TextField } from '../../ui/field';
import { Markdown } from '../../ui/markdown/markdown';
import { BlockKit } from '../channel/block-kit';
import { keys } from '../../api/query-keys';

const TEMPLATES = ['github', 'gitlab', 'alertmanager', 'grafana', 'sentry', 'json'] as const;
const MASK = '********************************';

interface DryRun {
  readonly post: { text?: string; attachments?: { title?: string; text?: string; fallback?: string }[]; blocks?: unknown } | null;
  readonly event: string;
  readonly filtered: boolean;
}

/** The transform's reason (the server puts it in detailed_error for these errors). */
const reasonOf = (error: unknown): string | undefined => (error instanceof ApiError && typeof error.body?.detailed_error === 'string' && error.body.detailed_error !== '' ? error.body.detailed_error : undefined);

const words = (value: string): string[] => value.split(/[\s,]+/).map((w) => w.trim()).filter(Boolean);

/** `Name: value` lines → headers (lines without a colon are ignored). */
function headersOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/**
 * A hook's transform (spec "Hook transform"): a built-in template or an own JSONata expression, event
 * filters and the vendor's secret; a sample payload tried through the dry-run route before saving.
 */
export function HookTransformPanel({ hook }: { hook: IncomingHook }) {
  const client = useQueryClient();
  const current = hook.transform ?? null;
  const [kind, setKind] = useState<string>(current === null ? 'none' : 'template' in current ? current.template : 'jsonata');
  const [expression, setExpression] = useState(current !== null && 'jsonata' in current ? current.jsonata : '{\n  "text": body.message\n}');
  const [only, setOnly] = useState((hook.only_events ?? []).join(', '));
  const [exclude, setExclude] = useState((hook.exclude_events ?? []).join(', '));
  const [secret, setSecret] = useState(hook.transform_secret ?? '');
  const [sample, setSample] = useState('{\n  "message": "hello"\n}');
  const [headers, setHeaders] = useState('');
  const [sampleProblem, setSampleProblem] = useState<string | undefined>();
  const transform = kind === 'none' ? null : kind === 'jsonata' ? { jsonata: expression } : { template: kind };

  const tryIt = useMutation({
    mutationFn: (body: unknown) => api.post<DryRun>(`/hooks/incoming/${hook.id}/transform/test`, { body, headers: headersOf(headers), ...(transform ? { transform } : {}) }),
  });
  const save = useMutation({
    mutationFn: () => api.put<IncomingHook>(`/hooks/incoming/${hook.id}`, { ...hook, transform, only_events: words(only), exclude_events: words(exclude), transform_secret: secret }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.incomingHooks.all }),
  });

  const onTry = (event: FormEvent) => {
    event.preventDefault();
    let body: unknown;
    try {
      body = JSON.parse(sample);
    } catch {
      setSampleProblem('The sample is not JSON.');
      return;
    }
    setSampleProblem(undefined);
    tryIt.mutate(body);
  };
  const result = tryIt.data;
  return (
    <form onSubmit={onTry} noValidate aria-label="Transform">
      <SelectField label="Payload format" value={kind} onChange={(e) => setKind(e.target.value)} hint="A built-in template reads that vendor's own webhook; an expression (JSONata) reads {body, headers, query}.">
        <option value="none">Slack-style body (no transform)</option>
        {TEMPLATES.map((t) => (
          <option key={t} value={t}>
            Template: {t}
          </option>
        ))}
        <option value="jsonata">Own expression (JSONata)</option>
      </SelectField>
      {kind === 'jsonata' ? <TextArea label="Expression" className="mono" rows={6} value={expression} onChange={(e) => setExpression(e.target.value)} hint="Yields a hook body: text, attachments, props, blocks..." /> : null}
      <TextField label="Only these events" value={only} onChange={(e) => setOnly(e.target.value)} hint="Comma-separated event names (e.g. push, release); empty: all." />
      <TextField label="Except these events" value={exclude} onChange={(e) => setExclude(e.target.value)} hint="Comma-separated; these are answered ok and not posted." />
      <TextField label="Vendor secret" type="password" autoComplete="off" value={secret} onChange={(e) => setSecret(e.target.value)} hint={secret === MASK ? 'A secret is set; type a new one to replace it, or clear the field to remove it.' : 'GitHub, GitLab and Sentry sign their requests with it.'} />
      <TextArea label="Sample payload" className="mono" rows={6} value={sample} onChange={(e) => setSample(e.target.value)} problem={sampleProblem} hint="Paste a payload the vendor sends." />
      <TextArea label="Sample headers" className="mono" rows={2} value={headers} onChange={(e) => setHeaders(e.target.value)} hint="One per line, e.g. X-GitHub-Event: push" />
      <div className="inline">
        <button type="submit" disabled={tryIt.isPending}>
          {tryIt.isPending ? 'Trying…' : 'Try it'}
        </button>
        <button type="button" onClick={() => save.mutate()} disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save transform'}
        </button>
      </div>
      <ErrorText error={tryIt.error ?? save.error} />
      {reasonOf(tryIt.error ?? save.error) ? (
        <p className="error" role="alert">
          {reasonOf(tryIt.error ?? save.error)}
        </p>
      ) : null}
      {save.isSuccess ? <p role="status">Transform saved.</p> : null}
      {result ? (
        <section className="transform-preview" aria-label="Preview">
          <p className="muted">
            Event: {result.event || '(none)'}
            {result.filtered ? ' — filtered out: answered ok, nothing posted.' : ''}
          </p>
          {result.post?.text ? <Markdown className="post-message" text={result.post.text} /> : null}
          {(result.post?.attachments ?? []).map((a, i) => (
            <div key={i} className="attachment">
              {a.title ? <strong>{a.title}</strong> : null}
              {a.text ? <Markdown text={a.text} /> : null}
            </div>
          ))}
          <BlockKit blocks={result.post?.blocks} />
        </section>
      ) : null}
    </form>
  );
}
