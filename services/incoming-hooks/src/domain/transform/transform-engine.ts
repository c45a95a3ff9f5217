import type { TransformInput } from './transform-input';

export interface TransformLimits {
  /** Wall time of one evaluation. */
  readonly timeMs: number;
  /** Size of the result (its strings, keys and values, as JSON would be about). */
  readonly maxOutputBytes: number;
}

/** Evaluates JSONata expressions within limits. Every failure is TransformErrors.failed with the reason. */
export interface TransformEngine {
  /** A built-in template (the repository's own expression), by name. */
  evaluateTemplate(name: string, input: TransformInput, limits: TransformLimits): Promise<unknown>;
  /** A hook manager's own expression: isolated from the process (its worst case is stopped from outside). */
  evaluateExpression(expression: string, input: TransformInput, limits: TransformLimits): Promise<unknown>;
  close(): Promise<void>;
}
