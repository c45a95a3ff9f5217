import { test } from 'node:test';
import assert from 'node:assert/strict';
import { domainHarness } from '../../test-support/domain-harness';
import { ensureConfig } from './ensure-config.usecase';
import { saveConfig } from './save-config';

test('when a stored config exists, then its secret is kept and keys added since are filled with defaults', async () => {
  const h = domainHarness();
  const first = await ensureConfig(h.deps);
  const stored = (await h.deps.configStore.load()) as { ServiceSettings: Record<string, unknown>; TeamSettings?: unknown };
  delete stored.TeamSettings;
  stored.ServiceSettings.EnableBotAccountCreation = true;
  await h.deps.configStore.save(stored as never);
  const second = await ensureConfig(h.deps);
  assert.equal(second.ServiceSettings.IntegrationSigningSecret, first.ServiceSettings.IntegrationSigningSecret);
  assert.equal(second.ServiceSettings.EnableBotAccountCreation, true);
  assert.equal(second.TeamSettings.EnableOpenServer, false);
  assert.equal(h.config.current().ServiceSettings.EnableBotAccountCreation, true);
  assert.equal(h.bus.types('config.events').length, 2);
});

test('when a default SiteURL is given, then an empty SiteURL is set to it and stored, and a set one is kept', async () => {
  const h = domainHarness();
  const first = await ensureConfig(h.deps, 'http://localhost:8065');
  assert.equal(first.ServiceSettings.SiteURL, 'http://localhost:8065');
  assert.equal(((await h.deps.configStore.load()) as { ServiceSettings: { SiteURL: string } }).ServiceSettings.SiteURL, 'http://localhost:8065');
  const stored = (await h.deps.configStore.load()) as { ServiceSettings: { SiteURL: string } };
  stored.ServiceSettings.SiteURL = 'https://chat.example.com';
  await h.deps.configStore.save(stored as never);
  const second = await ensureConfig(h.deps, 'http://localhost:9000');
  assert.equal(second.ServiceSettings.SiteURL, 'https://chat.example.com');
});

test('when no default SiteURL is given, then SiteURL stays empty', async () => {
  const h = domainHarness();
  assert.equal((await ensureConfig(h.deps)).ServiceSettings.SiteURL, '');
});

test('when PublicLinkSalt is empty at start, then 32 random characters are generated and stored once, and kept afterwards', async () => {
  const h = domainHarness();
  const first = await ensureConfig(h.deps);
  const salt = first.FileSettings.PublicLinkSalt;
  assert.match(salt, /^[a-z0-9]{32}$/);
  assert.equal(((await h.deps.configStore.load()) as { FileSettings: { PublicLinkSalt: string } }).FileSettings.PublicLinkSalt, salt);
  assert.equal((await ensureConfig(h.deps)).FileSettings.PublicLinkSalt, salt);
  assert.notEqual((await ensureConfig(domainHarness().deps)).FileSettings.PublicLinkSalt, salt);
});

test('when an update empties PublicLinkSalt, then a new one of 32 characters is stored; a kept salt stays', async () => {
  const h = domainHarness();
  const first = await ensureConfig(h.deps);
  const salt = first.FileSettings.PublicLinkSalt;
  const emptied = structuredClone(first);
  emptied.FileSettings.PublicLinkSalt = '';
  const saved = await saveConfig(h.deps, first, emptied);
  assert.match(saved.FileSettings.PublicLinkSalt, /^[a-z0-9]{32}$/);
  assert.notEqual(saved.FileSettings.PublicLinkSalt, salt);
  assert.equal(((await h.deps.configStore.load()) as { FileSettings: { PublicLinkSalt: string } }).FileSettings.PublicLinkSalt, saved.FileSettings.PublicLinkSalt);
  const kept = await saveConfig(h.deps, saved, structuredClone(saved));
  assert.equal(kept.FileSettings.PublicLinkSalt, saved.FileSettings.PublicLinkSalt);
});
