import type { HookTransform } from '../entities';
import { getHookOr404, requireEnabled, requireHookAccess } from '../hooks/hook-access';
import type { Actor, Deps } from '../ports';
import { applyTransform, type TransformOutcome } from './apply-transform.usecase';
import { TransformErrors } from './transform-errors';
import { transformFieldsOf } from './transform-rules';

export interface TransformTest {
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  readonly query?: string;
  /** Try this transform instead of the hook's stored one (the console tries one before saving it). */
  readonly transform?: HookTransform;
}

/**
 * `POST /hooks/incoming/{hook_id}/transform/test` (dry run): what the hook would post for this sample, its
 * event name and whether the hook's filters leave it out; nothing is posted and no signature is checked.
 * Only those who manage the hook.
 */
export async function testTransform(deps: Deps, actor: Actor, hookId: string, sample: TransformTest): Promise<TransformOutcome> {
  requireEnabled(deps);
  const hook = await getHookOr404(deps, hookId);
  await requireHookAccess(deps, actor, hook);
  const transform = sample.transform !== undefined ? transformFieldsOf({ channelId: hook.channelId, transform: sample.transform }).transform : hook.transform;
  if (!transform) throw TransformErrors.failed('the hook has no transform; give one in "transform"');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(sample.headers)) headers[name.toLowerCase()] = value;
  return applyTransform(deps.transforms, {
    transform,
    onlyEvents: hook.onlyEvents ?? [],
    excludeEvents: hook.excludeEvents ?? [],
    secret: '',
    headers,
    body: { parsed: sample.body },
    query: sample.query ?? '',
    maxOutputBytes: deps.liveConfig.current().ServiceSettings.MaximumPayloadSizeBytes,
  });
}
