import type jsonata from 'jsonata';
import { compile, evaluateWithin, reasonOf, type Evaluation } from './jsonata-evaluation';

/** One evaluation sent to the pool (structured-cloned). */
export interface WorkerTask {
  readonly expression: string;
  readonly input: unknown;
  readonly timeMs: number;
  readonly maxOutputBytes: number;
}

const MAX_COMPILED = 256;
/** Compiled expressions of this thread, by source (oldest dropped first). */
const compiled = new Map<string, jsonata.Expression>();

function compiledOf(expression: string, timeMs: number): jsonata.Expression {
  const key = `${timeMs}\u0000${expression}`;
  let found = compiled.get(key);
  if (!found) {
    found = compile(expression, timeMs);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, found);
  }
  return found;
}

/** The pool's task (piscina calls the default export in a worker thread). */
export default async function evaluateTask(task: WorkerTask): Promise<Evaluation> {
  let expression: jsonata.Expression;
  try {
    expression = compiledOf(task.expression, task.timeMs);
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  }
  return evaluateWithin(expression, task.input, task.maxOutputBytes);
}
