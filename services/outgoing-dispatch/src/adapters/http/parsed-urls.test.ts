import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ParsedUrls } from './parsed-urls';

test('when a callback URL is asked for again, then the same parse is given back, with its origin', () => {
  const urls = new ParsedUrls();
  const first = urls.get('http://127.0.0.1:9000/hook?x=1');
  assert.equal(first?.origin, 'http://127.0.0.1:9000');
  assert.equal(first?.url.pathname, '/hook');
  assert.equal(urls.get('http://127.0.0.1:9000/hook?x=1'), first);
  assert.notEqual(urls.get('http://127.0.0.1:9000/other'), first);
});

test('when the text is not a URL, then there is no parse (and nothing is remembered)', () => {
  const urls = new ParsedUrls();
  assert.equal(urls.get('not a url'), undefined);
  assert.equal(urls.get('not a url'), undefined);
});
