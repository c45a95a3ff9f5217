import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Bot, Channel, OutgoingHook } from '../../api/types';
import { botsUserManages, eventTypesFor, eventTypesOf } from './hook-events';
import { OutgoingHookForm } from './outgoing-hook-form';

const bot = (over: Partial<Bot>): Bot => ({ user_id: 'b1', username: 'ci', display_name: 'CI', description: '', owner_id: 'me', create_at: 1, update_at: 1, delete_at: 0, ...over });
const channels: Channel[] = [
  { id: 'c1', team_id: 't', name: 'town', display_name: 'Town', type: 'O', delete_at: 0 },
  { id: 'c2', team_id: 't', name: 'secret', display_name: 'Secret', type: 'P', delete_at: 0 },
];
const hook = (over: Partial<OutgoingHook>): OutgoingHook =>
  ({ id: 'h1', token: 't', create_at: 1, update_at: 1, delete_at: 0, creator_id: 'me', channel_id: '', team_id: 't', trigger_words: ['go'], trigger_when: 0, callback_urls: ['http://x.test'], display_name: 'H', description: '', content_type: '', username: '', icon_url: '', signing_secret: 's', disabled_at: 0, signing_algorithm: 'hmac-sha256', signing_public_key: '', event_types: ['posted'], bot_user_id: '', ...over }) as OutgoingHook;
const render = (props: Partial<Parameters<typeof OutgoingHookForm>[0]>) =>
  renderToStaticMarkup(<OutgoingHookForm teamId="t" channels={channels} bots={[]} eventTypes={eventTypesFor(false)} submitLabel="Save" pending={false} error={undefined} onSubmit={() => undefined} {...props} />);

test('when event types are offered, then system admins get the admin-only ones and others do not; a hook without types hears posted', () => {
  assert.ok(eventTypesFor(true).includes('delivery_dead'));
  assert.ok(eventTypesFor(true).includes('integration_disabled'));
  assert.deepEqual(eventTypesFor(false).filter((t) => t === 'delivery_dead' || t === 'integration_disabled'), []);
  assert.equal(eventTypesFor(false).length, 9);
  assert.deepEqual(eventTypesOf(hook({ event_types: [] })), ['posted']);
  assert.deepEqual(eventTypesOf(hook({ event_types: ['post_edited'] })), ['post_edited']);
});

test('when bots are offered, then only live bots the user owns, or all live ones with manage_others_bots', () => {
  const bots = [bot({ user_id: 'mine' }), bot({ user_id: 'theirs', owner_id: 'other' }), bot({ user_id: 'gone', delete_at: 5 })];
  assert.deepEqual(botsUserManages(bots, 'me', false).map((b) => b.user_id), ['mine']);
  assert.deepEqual(botsUserManages(bots, 'me', true).map((b) => b.user_id), ['mine', 'theirs']);
});

test('when a new hook form is drawn, then posted is checked, the bot list has the user\'s bots, only public channels are offered, and HMAC is the default', () => {
  const html = render({ bots: [bot({})] });
  assert.match(html, /<legend>Events<\/legend>/);
  assert.match(html, /<input type="checkbox" checked=""\/>A message is posted <code class="muted">posted<\/code>/);
  assert.doesNotMatch(html, /delivery_dead/);
  assert.match(html, /<option value="b1">@ci \(CI\)<\/option>/);
  assert.doesNotMatch(html, /Secret \(private\)/);
  assert.match(html, /<option value="hmac-sha256" selected="">v1: HMAC-SHA256/);
  assert.doesNotMatch(html, /Public key/);
});

test('when an Ed25519 bot hook is edited, then its types are checked, private channels are offered, and the public key is read-only with a copy button', () => {
  const html = render({ initial: hook({ bot_user_id: 'b1', signing_algorithm: 'ed25519', signing_public_key: 'whpk_abc=', event_types: ['posted', 'reaction_added'], channel_id: 'c2' }), bots: [bot({})] });
  assert.match(html, /<input type="checkbox" checked=""\/>A reaction is added/);
  assert.match(html, /<option value="c2" selected="">Secret \(private\)<\/option>/);
  assert.match(html, /<option value="ed25519" selected="">v1a: Ed25519/);
  assert.match(html, /<label for="[^"]+">Public key<\/label><input [^>]*readOnly="" [^>]*value="whpk_abc="/);
  assert.match(html, /<button type="button">Copy public key<\/button>/);
});

test('when a hook names a bot the user no longer manages or an admin-only type, then both stay shown (the type fixed) so an edit keeps them', () => {
  const html = render({ initial: hook({ bot_user_id: 'zzz', event_types: ['posted', 'delivery_dead'] }) });
  assert.match(html, /<option value="zzz" selected="">@zzz<\/option>/);
  assert.match(html, /<input type="checkbox" disabled="" checked=""\/>A delivery gives up/);
});
