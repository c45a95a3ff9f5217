import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startReceiver, type Receiver } from './support/receiver';

/** One POST over `agent` (kept alive, so later requests reuse the connection). */
function post(agent: Agent, url: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('the drills receiver attributes connections to their process', () => {
  const owners = new Map<string, number | undefined>();
  let receiver: Receiver;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  before(async () => {
    receiver = await startReceiver({ owners: () => owners });
  });
  after(async () => {
    agent.destroy();
    await receiver.close();
  });

  it('when a sender connects before it is registered, then its later requests on that connection are attributed to it', async () => {
    assert.equal(await post(agent, receiver.url, '/early'), 200);
    owners.set('this-process', process.pid);
    assert.equal(await post(agent, receiver.url, '/late'), 200);
    const by = Object.fromEntries(receiver.requests.map((r) => [r.path, r.by]));
    assert.deepEqual(by, { '/early': 'unknown', '/late': 'this-process' });
  });

  it('when a registered process sends on a new connection, then it is attributed at once', async () => {
    const fresh = new Agent({ keepAlive: false });
    try {
      assert.equal(await post(fresh, receiver.url, '/fresh'), 200);
    } finally {
      fresh.destroy();
    }
    assert.equal(receiver.requests.find((r) => r.path === '/fresh')?.by, 'this-process');
  });
});
