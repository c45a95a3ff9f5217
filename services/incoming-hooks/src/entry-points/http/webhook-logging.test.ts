import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '@switchyard/logger';
import { httpHarness, type HttpHarness } from '../../test-support/http-harness';

function capture(level: 'info' | 'debug'): { lines: Record<string, unknown>[]; logger: ReturnType<typeof createLogger> } {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger({ service: 'incoming-hooks', level, sink: (line) => lines.push(line) }) };
}

describe('webhook debug logging (LogSettings.EnableWebhookDebugging)', () => {
  for (const level of ['info', 'debug'] as const) {
    describe(`at log level ${level}`, () => {
      const { lines, logger } = capture(level);
      let h: HttpHarness;
      let key: string;
      before(async () => {
        h = await httpHarness({ logger });
        key = (await h.createHook()).id;
      });
      after(async () => {
        await h.stop();
      });

      it('when debugging is on (the default), then refusals are logged with the request id and a shortened key; the request body only at debug', async () => {
        lines.length = 0;
        await h.request('POST', `/hooks/${key}`, { body: { text: 'secret-body-text' } });
        await h.request('POST', `/hooks/${key}`, { body: { text: '', props: { note: 'refused-body-text' } } });
        const text = JSON.stringify(lines);
        assert.ok(!text.includes(key), 'the full key (the hook\'s secret) is never logged');
        const refused = lines.find((l) => l.message === 'incoming webhook refused');
        assert.ok(refused, text);
        assert.equal(refused.hook, `${key.slice(0, 6)}…`);
        assert.match(String(refused.request_id), /^[a-z0-9]{26}$/);
        if (level === 'debug') {
          assert.ok(text.includes('secret-body-text'), 'bodies appear at debug level');
        } else {
          assert.ok(!text.includes('secret-body-text') && !text.includes('refused-body-text'), 'no request body below debug level');
        }
      });

      it('when debugging is off, then accepted and refused webhook requests write nothing', async () => {
        h.setConfig((c) => (c.LogSettings.EnableWebhookDebugging = false));
        try {
          lines.length = 0;
          await h.request('POST', `/hooks/${key}`, { body: { text: 'quiet' } });
          await h.request('POST', `/hooks/${key}`, { body: { text: '' } });
          assert.deepEqual(lines.filter((l) => String(l.message).includes('incoming webhook')), []);
        } finally {
          h.setConfig((c) => (c.LogSettings.EnableWebhookDebugging = true));
        }
      });
    });
  }
});
