import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type jsonata from 'jsonata';
import { Piscina } from 'piscina';
import { unavailable } from '@switchyard/errors';
import type { TransformEngine, TransformLimits } from '../../domain/transform/transform-engine';
import type { TransformInput } from '../../domain/transform/transform-input';
import { TransformErrors } from '../../domain/transform/transform-errors';
import { compile, evaluateWithin, type Evaluation } from './jsonata-evaluation';
import type { WorkerTask } from './jsonata.worker';

/** The built-in templates, as data: `<package>/templates/<name>.jsonata` (the same depth from src and dist). */
export const TEMPLATES_DIR = join(__dirname, '..', '..', '..', 'templates');

export interface JsonataEngineOptions {
  readonly templatesDir?: string;
  /** Worker threads for hook managers' own expressions (started on first use, stopped when idle). */
  readonly maxThreads?: number;
  /** Evaluations waiting for a thread beyond which a request is refused (503). */
  readonly maxQueue?: number;
  /**
   * How long past its time limit an evaluation may take before its thread is terminated: a native call (a
   * regex) does not see jsonata's clock; the wait for a thread and a new thread's start count too.
   */
  readonly graceMs?: number;
  /** Heap of one worker thread: an expression that builds more is stopped with the thread. */
  readonly workerHeapMb?: number;
}

const fail = (evaluation: Evaluation): unknown => {
  if (!evaluation.ok) throw TransformErrors.failed(evaluation.reason);
  return evaluation.value;
};

/**
 * Built-in templates run in process (the repository's own expressions, linear in the payload, still under
 * jsonata's time, stack and sequence guardrails), compiled once. Hook managers' expressions run in a
 * piscina pool: compiled once per thread, the same guardrails, a result-size check before anything is sent
 * back, a heap limit per thread, and a hard stop (the thread is terminated) at the time limit plus a grace.
 */
export class JsonataTransformEngine implements TransformEngine {
  private readonly templates = new Map<string, jsonata.Expression>();
  private pool: Piscina<WorkerTask, Evaluation> | undefined;
  /** The first thread's start (module loading), awaited before an evaluation's clock starts. */
  private warm: Promise<unknown> | undefined;

  public constructor(private readonly options: JsonataEngineOptions = {}) {}

  public async evaluateTemplate(name: string, input: TransformInput, limits: TransformLimits): Promise<unknown> {
    const key = `${name}\u0000${limits.timeMs}`;
    let expression = this.templates.get(key);
    if (!expression) {
      expression = compile(readFileSync(join(this.options.templatesDir ?? TEMPLATES_DIR, `${name}.jsonata`), 'utf8'), limits.timeMs);
      this.templates.set(key, expression);
    }
    return fail(await evaluateWithin(expression, input, limits.maxOutputBytes));
  }

  public async evaluateExpression(expression: string, input: TransformInput, limits: TransformLimits): Promise<unknown> {
    const pool = this.workers();
    await this.warm;
    if (pool.queueSize >= pool.options.maxQueue) throw unavailable('api.webhook.transform.busy.app_error', 'Too many webhook transforms are waiting; try again shortly.', { headers: { 'Retry-After': '1' } });
    const task: WorkerTask = { expression, input, timeMs: limits.timeMs, maxOutputBytes: limits.maxOutputBytes };
    let evaluation: Evaluation;
    try {
      evaluation = await pool.run(task, { signal: AbortSignal.timeout(limits.timeMs + (this.options.graceMs ?? 1_000)) });
    } catch (error) {
      // Its thread was terminated: the next evaluation's clock starts once a new one has started.
      this.warm = this.warmUp(pool);
      throw TransformErrors.failed(stoppedReason(error, limits.timeMs));
    }
    return fail(evaluation);
  }

  public async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.warm = undefined;
    await pool?.destroy();
  }

  private workers(): Piscina<WorkerTask, Evaluation> {
    if (this.pool) return this.pool;
    this.pool = new Piscina<WorkerTask, Evaluation>({
      filename: join(__dirname, `jsonata.worker${extname(__filename)}`),
      // One thread stays once started (a replacement starts at once after a hostile expression's thread is stopped).
      minThreads: 1,
      maxThreads: this.options.maxThreads ?? 2,
      maxQueue: this.options.maxQueue ?? 64,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: this.options.workerHeapMb ?? 128, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    this.warm = this.warmUp(this.pool);
    return this.pool;
  }

  /** A no-op task: resolves once a thread is up (module loading done). */
  private warmUp(pool: Piscina<WorkerTask, Evaluation>): Promise<unknown> {
    return pool.run({ expression: 'null', input: null, timeMs: 1_000, maxOutputBytes: 16 }).catch(() => undefined);
  }
}

function stoppedReason(error: unknown, timeMs: number): string {
  const { name, code } = (typeof error === 'object' && error !== null ? error : {}) as { name?: unknown; code?: unknown };
  if (name === 'AbortError' || name === 'TimeoutError') return `the evaluation did not finish in time (limit ${timeMs} ms) and was stopped`;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return 'the evaluation used more memory than allowed and was stopped';
  return 'the evaluation was stopped';
}
