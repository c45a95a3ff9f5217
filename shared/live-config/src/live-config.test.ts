import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSilentLogger } from '@switchyard/logger';
import { defaultSystemConfig, MutableConfigView, type SystemConfig } from '@switchyard/system-config';
import { LiveConfig, type ConfigSource } from './live-config';

/** A config source whose every load() waits until the test releases it with the document it answers. */
class HeldSource implements ConfigSource {
  public loads = 0;
  private readonly pending: ((config: SystemConfig) => void)[] = [];

  public load(): Promise<SystemConfig> {
    this.loads += 1;
    return new Promise((resolve) => this.pending.push(resolve));
  }

  public release(config: SystemConfig): void {
    const next = this.pending.shift();
    assert.ok(next, 'a load is waiting');
    next(config);
  }
}

const withPayloadLimit = (bytes: number): SystemConfig => {
  const config = defaultSystemConfig();
  config.ServiceSettings.MaximumPayloadSizeBytes = bytes;
  return config;
};

test('when a config event is applied while the first load is in flight, then the stale loaded document does not replace it', async () => {
  const view = new MutableConfigView(withPayloadLimit(1));
  const source = new HeldSource();
  const live = new LiveConfig({ view, source, logger: createSilentLogger() });
  const started = live.start();
  assert.equal(source.loads, 1, 'the load is on its way');
  live.apply(withPayloadLimit(4242) as unknown as Record<string, unknown>);
  assert.equal(view.current().ServiceSettings.MaximumPayloadSizeBytes, 4242);
  source.release(withPayloadLimit(1111)); // read before the change: stale
  await started;
  assert.equal(view.current().ServiceSettings.MaximumPayloadSizeBytes, 4242, "the event's value wins");
  assert.equal(live.loaded, true);
  live.stop();
});

test('when no event overlaps the first load, then the loaded document is applied', async () => {
  const view = new MutableConfigView(withPayloadLimit(1));
  const source = new HeldSource();
  const live = new LiveConfig({ view, source, logger: createSilentLogger() });
  const started = live.start();
  assert.equal(live.loaded, false);
  source.release(withPayloadLimit(1111));
  await started;
  assert.equal(view.current().ServiceSettings.MaximumPayloadSizeBytes, 1111);
  assert.equal(live.loaded, true);
  live.stop();
});

test('when an event arrives before any load succeeded, then later retries stop and the event stays', async () => {
  const view = new MutableConfigView(withPayloadLimit(1));
  let loads = 0;
  const failing: ConfigSource = {
    load: async () => {
      loads += 1;
      throw new Error('users-bots not ready');
    },
  };
  const live = new LiveConfig({ view, source: failing, logger: createSilentLogger(), initialDelayMs: 60_000 });
  await live.start();
  assert.equal(loads, 1);
  assert.equal(live.loaded, false);
  live.apply(withPayloadLimit(77) as unknown as Record<string, unknown>);
  assert.equal(live.loaded, true);
  assert.equal(view.current().ServiceSettings.MaximumPayloadSizeBytes, 77);
  live.stop();
});

test('when nextApply is waiting, then the next event wakes it with true; with no event it answers false after its bound', async () => {
  const view = new MutableConfigView();
  const live = new LiveConfig({ view, source: new HeldSource(), logger: createSilentLogger() });
  const woken = live.nextApply(60_000);
  live.apply(withPayloadLimit(5) as unknown as Record<string, unknown>);
  assert.equal(await woken, true);
  assert.equal(await live.nextApply(1), false);
});
