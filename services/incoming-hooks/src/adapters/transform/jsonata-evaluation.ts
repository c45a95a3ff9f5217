import jsonata from 'jsonata';

/** jsonata's own guardrails: nesting of evaluation (recursion) and the length of any sequence it builds. */
export const STACK_LIMIT = 300;
export const SEQUENCE_LIMIT = 100_000;

export type Evaluation = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

export function compile(expression: string, timeMs: number): jsonata.Expression {
  return jsonata(expression, { timeout: timeMs, stack: STACK_LIMIT, sequence: SEQUENCE_LIMIT });
}

/** A JSONata error as one line (code, message, position; an expression's own `$error` without the position). */
export function reasonOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code, message, position } = error as { code?: unknown; message?: unknown; position?: unknown };
    const text = typeof message === 'string' && message !== '' ? message : 'evaluation failed';
    return `${typeof code === 'string' ? `${code}: ` : ''}${text}${typeof position === 'number' && position > 0 && code !== 'D3137' ? ` (position ${position})` : ''}`.slice(0, 500);
  }
  return 'evaluation failed';
}

/**
 * About how many bytes the value would be as JSON, counted without building it (a string built by
 * concatenation is not flattened); stops counting past `limit`. Functions and other non-JSON values count 0.
 */
export function approximateSize(value: unknown, limit: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (typeof item === 'number' || typeof item === 'boolean') size += 8;
    else if (item === null) size += 4;
    else if (Array.isArray(item)) {
      size += 2 + item.length;
      for (const child of item) stack.push(child);
    } else if (typeof item === 'object') {
      for (const key of Object.keys(item)) {
        size += key.length + 4;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return size;
}

/** Evaluates and checks the result's size: a plain JSON value (undefined when the expression yields nothing), or the reason it failed. */
export async function evaluateWithin(expression: jsonata.Expression, input: unknown, maxOutputBytes: number): Promise<Evaluation> {
  let result: unknown;
  try {
    result = await expression.evaluate(input);
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  }
  if (approximateSize(result, maxOutputBytes) > maxOutputBytes) return { ok: false, reason: `the result is larger than ${maxOutputBytes} bytes` };
  // jsonata marks sequences with extra properties and may return functions: only JSON goes on.
  return { ok: true, value: result === undefined ? undefined : (JSON.parse(JSON.stringify(result)) as unknown) };
}
