import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RouteMatcher } from './route-matcher';
import { ROUTE_TABLE, SESSION_OPTIONAL } from './route-table';

const matcher = new RouteMatcher(ROUTE_TABLE, SESSION_OPTIONAL);
const owner = (method: string, path: string): string | undefined => matcher.match(method, path)?.service;

test('when a path is in the route table, then it goes to the service that owns it', () => {
  const cases: [string, string, string | undefined][] = [
    ['GET', '/api/v4/users/me', 'users-bots'],
    ['POST', '/api/v4/users', 'users-bots'],
    ['GET', '/api/v4/users?page=1&per_page=10', 'users-bots'],
    ['POST', '/api/v4/bots', 'users-bots'],
    ['GET', '/api/v4/teams/abc/members', 'users-bots'],
    ['GET', '/api/v4/teams', 'users-bots'],
    ['PUT', '/api/v4/config/patch', 'users-bots'],
    ['GET', '/api/v4/teams/abc/channels', 'posts'],
    ['GET', '/api/v4/teams/abc/channels/name/town-square', 'posts'],
    ['GET', '/api/v4/teams/name/myteam/channels/name/town-square', 'posts'],
    ['POST', '/api/v4/channels', 'posts'],
    ['POST', '/api/v4/posts', 'posts'],
    ['GET', '/api/v4/posts/p1/reactions', 'posts'],
    ['POST', '/api/v4/reactions', 'posts'],
    ['DELETE', '/api/v4/users/u1/posts/p1/reactions/smile', 'posts'],
    ['POST', '/api/v4/posts/p1/actions/a1', 'outgoing-dispatch'],
    ['GET', '/api/v4/hooks/incoming', 'incoming-hooks'],
    ['PUT', '/api/v4/hooks/incoming/h1', 'incoming-hooks'],
    ['POST', '/hooks/abc123', 'incoming-hooks'],
    ['GET', '/api/v4/hooks/outgoing/h1/deliveries', 'outgoing-dispatch'],
    ['POST', '/api/v4/actions/dialogs/open', 'outgoing-dispatch'],
    ['GET', '/api/v4/users/me/teams/t1/threads', 'posts'],
    ['PUT', '/api/v4/users/u1/teams/t1/threads/th1/read/123', 'posts'],
    ['GET', '/api/v4/users/u1/teams/t1/channels', 'posts'],
  ];
  for (const [method, path, service] of cases) assert.equal(owner(method, path), service, `${method} ${path}`);
});

test('when a path is unknown, unsafe or the wrong method on a hook, then nothing matches', () => {
  for (const [method, path] of [
    ['GET', '/api/v4/system/ping2'],
    ['GET', '/api/v4/usersx'],
    ['GET', '/api/v4'],
    ['GET', '/internal/v1/config'],
    ['GET', '/api/v4/users/../../internal/v1/config'],
    ['GET', '/api/v4//users'],
    ['GET', '/hooks/abc'],
    ['POST', '/hooks'],
    ['POST', '/hooks/abc/extra'],
  ]) {
    assert.equal(owner(method!, path!), undefined, `${method} ${path}`);
  }
});

test('when a route is login, signup, logout or an incoming hook, then it is session-optional', () => {
  assert.equal(matcher.match('POST', '/api/v4/users/login')?.sessionOptional, true);
  assert.equal(matcher.match('POST', '/api/v4/users')?.sessionOptional, true);
  assert.equal(matcher.match('POST', '/hooks/k')?.sessionOptional, true);
  assert.equal(matcher.match('GET', '/api/v4/users/me')?.sessionOptional, false);
  assert.equal(matcher.match('GET', '/api/v4/users')?.sessionOptional, false);
});
