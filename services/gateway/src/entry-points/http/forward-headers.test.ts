import { test } from 'node:test';
import assert from 'node:assert/strict';
import { upstreamRequestHeaders } from './forward-headers';

const context = { requestId: 'r1', clientIp: '127.0.0.1', protocol: 'http', identity: {} };
const incoming = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'a=b', 'x-custom': 'y' };

test('when the gateway traces its own calls, then the client trace headers are not passed on (the gateway writes a child)', () => {
  const out = upstreamRequestHeaders(incoming, { ...context, ownTraceHeaders: ['traceparent', 'tracestate', 'baggage'] });
  assert.equal(out.traceparent, undefined);
  assert.equal(out.tracestate, undefined);
  assert.equal(out['x-custom'], 'y');
});

test('when the gateway does not trace, then the client trace headers pass through unchanged', () => {
  const out = upstreamRequestHeaders(incoming, context);
  assert.equal(out.traceparent, incoming.traceparent);
  assert.equal(out.tracestate, 'a=b');
});
