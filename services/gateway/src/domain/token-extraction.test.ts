import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csrfPasses } from './csrf';
import { extractToken, readCookie } from './token-extraction';

test('when the cookie and a bearer header are both present, then the cookie wins', () => {
  assert.deepEqual(extractToken({ cookie: 'a=b; MMAUTHTOKEN=fromcookie', authorization: 'Bearer fromheader' }), { token: 'fromcookie', location: 'cookie' });
});

test('when Authorization is Bearer in any case or token, then the token is read from it', () => {
  assert.deepEqual(extractToken({ authorization: 'Bearer abc' }), { token: 'abc', location: 'header' });
  assert.deepEqual(extractToken({ authorization: 'BEARER abc' }), { token: 'abc', location: 'header' });
  assert.deepEqual(extractToken({ authorization: 'bearer abc' }), { token: 'abc', location: 'header' });
  assert.deepEqual(extractToken({ authorization: 'Token abc' }), { token: 'abc', location: 'header' });
  assert.equal(extractToken({ authorization: 'Basic abc' }), undefined);
  assert.equal(extractToken({ authorization: 'Bearer' }), undefined);
});

test('when only access_token is given, then it is found in the query; a header wins over it', () => {
  assert.deepEqual(extractToken({ accessToken: 'q' }), { token: 'q', location: 'query' });
  assert.deepEqual(extractToken({ accessToken: 'q', authorization: 'Bearer h' }), { token: 'h', location: 'header' });
  assert.deepEqual(extractToken({ cookie: 'MMAUTHTOKEN=', authorization: 'Bearer h' }), { token: 'h', location: 'header' });
});

test('when a cookie value is quoted or encoded, then it is decoded', () => {
  assert.equal(readCookie('MMAUTHTOKEN="a%20b"', 'MMAUTHTOKEN'), 'a b');
  assert.equal(readCookie('XMMAUTHTOKEN=1; MMAUTHTOKEN=2', 'MMAUTHTOKEN'), '2');
});

test('when a cookie-authenticated non-GET is checked, then the CSRF header or XMLHttpRequest (unless strict) is needed', () => {
  const base = { method: 'POST', location: 'cookie' as const, sessionCsrf: 'c1', csrfHeader: undefined, requestedWith: undefined, strict: false };
  assert.equal(csrfPasses(base), false);
  assert.equal(csrfPasses({ ...base, csrfHeader: 'c1' }), true);
  assert.equal(csrfPasses({ ...base, csrfHeader: 'other' }), false);
  assert.equal(csrfPasses({ ...base, requestedWith: 'XMLHttpRequest' }), true);
  assert.equal(csrfPasses({ ...base, requestedWith: 'XMLHttpRequest', strict: true }), false);
  assert.equal(csrfPasses({ ...base, csrfHeader: 'c1', strict: true }), true);
  assert.equal(csrfPasses({ ...base, method: 'GET' }), true);
  assert.equal(csrfPasses({ ...base, location: 'header' }), true);
  assert.equal(csrfPasses({ ...base, sessionCsrf: '', csrfHeader: '' }), false);
});
