import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '@switchyard/errors';
import { JsonataTransformEngine } from './jsonata-engine';

const input = { body: { name: 'octo', items: [1, 2, 3] }, headers: { 'x-github-event': 'push' }, query: {} };
const limits = { timeMs: 200, maxOutputBytes: 100_000 };

/** Hostile expressions a hook manager could save, and what each would cost without limits. */
export const HOSTILE: Readonly<Record<string, string>> = {
  'infinite recursion': '($f := function($n){ $f($n + 1) }; $f(0))',
  'endless tail loop': '($f := function($n){ $n < 0 ? $n : $f($n + 1) }; $f(0))',
  '100 MB string': '$pad("", 100000000, "x")',
  'string doubling': '($s := $pad("", 1000000, "x"); $d := function($x, $n){ $n = 0 ? $x : $d($x & $x, $n - 1) }; $d($s, 40))',
  'million-element array': '[1..1000000]',
  'catastrophic regex': '$match($pad("", 40, "a") & "!", /^(a+)+$/)',
};

const failedWith = (reason: RegExp) => (error: unknown): boolean => {
  assert.ok(isAppError(error), String(error));
  assert.equal(error.id, 'api.webhook.transform.app_error');
  assert.equal(error.statusCode, 400);
  assert.match(error.detailedError, reason);
  return true;
};

describe('JsonataTransformEngine', () => {
  const engine = new JsonataTransformEngine({ maxThreads: 1 });
  after(() => engine.close());

  it('when a built-in template is evaluated, then its result is plain JSON from the input', async () => {
    const out = await engine.evaluateTemplate('json', input, limits);
    assert.equal(typeof (out as { text: unknown }).text, 'string');
    assert.match((out as { text: string }).text, /"name": "octo"/);
  });

  it('when an own expression is evaluated, then it runs on {body, headers, query} and gives plain JSON', async () => {
    const out = await engine.evaluateExpression('{"text": body.name & " " & headers."x-github-event", "n": $count(body.items)}', input, limits);
    assert.deepEqual(out, { text: 'octo push', n: 3 });
    assert.equal(await engine.evaluateExpression('body.missing', input, limits), undefined);
  });

  it('when an expression fails at run time, then 400 with jsonata\'s reason', async () => {
    await assert.rejects(engine.evaluateExpression('$error("no way")', input, limits), failedWith(/no way/));
    await assert.rejects(engine.evaluateExpression('body.name + 1', input, limits), failedWith(/T2001/));
  });

  for (const [name, expression] of Object.entries(HOSTILE)) {
    it(`when the expression is hostile (${name}), then it is stopped with a 400 and timers keep firing meanwhile`, async () => {
      let ticks = 0;
      const timer = setInterval(() => (ticks += 1), 5);
      try {
        await assert.rejects(engine.evaluateExpression(expression, input, limits), failedWith(/timeout|stopped|sequence|larger than|D1011|D2014|D2015|Invalid string length|memory/i));
      } finally {
        clearInterval(timer);
      }
      if (/regex|recursion|loop|doubling/.test(name)) assert.ok(ticks > 0, 'the event loop kept turning');
    });
  }

  it('when the pool was stopped by a hostile expression, then the next evaluation works', async () => {
    await assert.rejects(engine.evaluateExpression(HOSTILE['catastrophic regex'] as string, input, limits));
    assert.deepEqual(await engine.evaluateExpression('{"text": "fine"}', input, limits), { text: 'fine' });
  });
});
