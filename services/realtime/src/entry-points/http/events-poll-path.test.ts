import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { isEventsPoll } from './events.routes';

const request = (method: string, url: string): IncomingMessage => ({ method, url }) as IncomingMessage;

describe('which requests the realtime app runs straight to the events handler', () => {
  it('when a GET is for /api/v4/events, with or without a query, then it goes straight to the handler', () => {
    assert.equal(isEventsPoll(request('GET', '/api/v4/events')), true);
    assert.equal(isEventsPoll(request('GET', '/api/v4/events?cursor=abc&wait=30')), true);
  });

  it('when the method, the path or its end differ, then the router decides (it may answer something else)', () => {
    for (const [method, url] of [
      ['POST', '/api/v4/events'],
      ['HEAD', '/api/v4/events'],
      ['GET', '/api/v4/events/'],
      ['GET', '/api/v4/eventsx'],
      ['GET', '/api/v4/events/x?cursor=a'],
      ['GET', '/API/V4/EVENTS'],
      ['GET', '/api/v4/event'],
    ] as const) {
      assert.equal(isEventsPoll(request(method, url)), false, `${method} ${url}`);
    }
  });
});
