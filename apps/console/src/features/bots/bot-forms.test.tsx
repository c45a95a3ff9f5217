import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { fakeApi, route } from '../../test-support/fake-api';
import { BOT_USERNAME_RULE } from './bot-username';
import { ConvertUserForm } from './convert-user-form';
import { CreateBotForm } from './create-bot-form';
import { convertUserToBot, createBotWithToken } from './use-bot-actions';

const render = (node: ReactNode) => renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>);

test('when the create-bot form is drawn, then it has a titled form, a required username with the rule as its hint, display name and description with their limits', () => {
  const html = render(<CreateBotForm />);
  assert.match(html, /<form aria-labelledby="create-bot-title" noValidate=""><h2 id="create-bot-title">Create a bot<\/h2>/);
  assert.match(html, /<label for="([^"]+)">Username<\/label><input id="\1" aria-describedby="\1-hint" required="" autoComplete="off" name="username" value=""\/>/);
  assert.ok(html.includes(`>${BOT_USERNAME_RULE}</p>`), 'the username rule is the hint');
  assert.match(html, /<label for="[^"]+">Display name<\/label><input [^>]*maxLength="64" name="display_name"/);
  assert.match(html, /<label for="[^"]+">Description<\/label><input [^>]*maxLength="1024" name="description"/);
  assert.match(html, /<button type="submit" class="primary">Create bot<\/button>/);
  assert.doesNotMatch(html, /role="alert"/, 'no problem is shown before anything is typed');
});

test('when the convert form is drawn, then it asks for the username, warns what happens, and offers the button', () => {
  const html = render(<ConvertUserForm />);
  assert.match(html, /<h2 id="convert-title">Convert a user to a bot<\/h2>/);
  assert.match(html, /<label for="[^"]+">Username of the user to convert<\/label><input [^>]*required=""/);
  assert.match(html, /can no longer sign in/);
  assert.match(html, /<button type="submit">Convert to bot<\/button>/);
});

test('when a bot is created, then POST /bots is sent with the form values and then its first token is made for the new bot user', async () => {
  const server = fakeApi([
    route('POST', '/api/v4/bots', { user_id: 'b1', username: 'ci-bot', display_name: 'CI', description: '', owner_id: 'u1', create_at: 1, update_at: 1, delete_at: 0 }, 201),
    route('POST', '/api/v4/users/b1/tokens', { id: 't1', token: 'secret-token', user_id: 'b1', description: 'Created with the bot', is_active: true }),
  ]);
  try {
    const made = await createBotWithToken({ username: 'ci-bot', display_name: 'CI', description: '' });
    assert.equal(made.bot.user_id, 'b1');
    assert.equal(made.token.token, 'secret-token');
    assert.deepEqual(server.seen.map((r) => `${r.method} ${r.path}`), ['POST /api/v4/bots', 'POST /api/v4/users/b1/tokens']);
    assert.deepEqual(server.seen[0]?.body, { username: 'ci-bot', display_name: 'CI', description: '' });
  } finally {
    server.restore();
  }
});

test('when bot creation is refused, then no token is asked for and the AppError reaches the form', async () => {
  const server = fakeApi([route('POST', '/api/v4/bots', { id: 'app.bot.createbot.username_conflict', message: 'Taken.', status_code: 400 }, 400)]);
  try {
    await assert.rejects(createBotWithToken({ username: 'taken', display_name: '', description: '' }), (e: { id?: string }) => e.id === 'app.bot.createbot.username_conflict');
    assert.equal(server.seen.length, 1);
  } finally {
    server.restore();
  }
});

test('when a user is converted, then the username (leading @ dropped, encoded) is looked up and that user id is converted', async () => {
  const server = fakeApi([route('GET', '/api/v4/users/username/jo%20e', { id: 'u9', username: 'jo e', roles: 'system_user', delete_at: 0 }), route('POST', '/api/v4/users/u9/convert_to_bot', { user_id: 'u9', username: 'jo e' })]);
  try {
    const bot = await convertUserToBot('@jo e');
    assert.equal(bot.user_id, 'u9');
    assert.deepEqual(server.seen.map((r) => `${r.method} ${r.path}`), ['GET /api/v4/users/username/jo%20e', 'POST /api/v4/users/u9/convert_to_bot']);
  } finally {
    server.restore();
  }
});
