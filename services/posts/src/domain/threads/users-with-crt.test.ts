import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSystemConfig, MutableConfigView, type CollapsedThreadsMode } from '@switchyard/system-config';
import { usersWithCrt } from './thread-events';

const view = (mode: CollapsedThreadsMode): MutableConfigView => {
  const config = new MutableConfigView();
  const base = defaultSystemConfig();
  config.replace({ ...base, ServiceSettings: { ...base.ServiceSettings, CollapsedThreads: mode } });
  return config;
};
const prefs = (values: Record<string, string>) => ({ valuesOf: async (ids: readonly string[]) => new Map(ids.filter((id) => id in values).map((id) => [id, values[id] ?? ''])) });
const sorted = (s: Set<string>): string[] => [...s].sort();

describe('usersWithCrt (the reference\'s IsCRTEnabledForUser)', () => {
  it('when the mode is disabled or always_on, then preferences do not matter', async () => {
    const crtPreferences = prefs({ a: 'on', b: 'off' });
    assert.deepEqual(sorted(await usersWithCrt({ liveConfig: view('disabled'), crtPreferences }, ['a', 'b', 'c'])), []);
    assert.deepEqual(sorted(await usersWithCrt({ liveConfig: view('always_on'), crtPreferences }, ['a', 'b', 'c'])), ['a', 'b', 'c']);
  });

  it('when the mode is default_on or default_off, then a set preference decides (only "on" is on), else the default', async () => {
    const crtPreferences = prefs({ a: 'on', b: 'off', d: 'yes' });
    assert.deepEqual(sorted(await usersWithCrt({ liveConfig: view('default_on'), crtPreferences }, ['a', 'b', 'c', 'd'])), ['a', 'c']);
    assert.deepEqual(sorted(await usersWithCrt({ liveConfig: view('default_off'), crtPreferences }, ['a', 'b', 'c', 'd'])), ['a']);
    assert.deepEqual(sorted(await usersWithCrt({ liveConfig: view('default_off') }, ['a'])), [], 'no preference source: the default');
  });
});
