import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { KafkaEventBus, type KafkaEventBusOptions } from './index';
import { secureTestBroker, SKIP_WITHOUT_SECURE_BROKER, testBusOptions } from './test-support/broker';

// The adapter against the broker's SASL_SSL and mutual-TLS listeners (deploy/local/up.sh): each
// connection publishes and consumes through the secured listener only.

const secure = secureTestBroker();

async function roundTrip(options: KafkaEventBusOptions): Promise<unknown[]> {
  const bus = new KafkaEventBus(options);
  try {
    const topic = `secure.${randomUUID().slice(0, 8)}`;
    await bus.ensureTopics([{ topic, partitions: 1 }]);
    const seen: unknown[] = [];
    const sub = await bus.subscribe({ groupId: `g-${topic}`, topics: [topic], handler: async (m) => void seen.push(m.value) });
    await bus.publish(topic, [{ key: 'k', value: { via: options.sasl?.mechanism ?? 'mtls' } }]);
    const deadline = Date.now() + 20_000;
    while (seen.length === 0 && Date.now() < deadline) await delay(20);
    await sub.stop();
    assert.equal(await bus.health(), true);
    return seen;
  } finally {
    await bus.close();
  }
}

describe('KafkaEventBus over TLS and SASL', { concurrency: true, skip: secure ? false : SKIP_WITHOUT_SECURE_BROKER }, () => {
  if (!secure) return;
  const ca = readFileSync(secure.caFile, 'utf8');
  const opened: KafkaEventBus[] = [];
  after(async () => Promise.all(opened.map((b) => b.close())));

  for (const mechanism of ['scram-sha-256', 'scram-sha-512', 'plain'] as const) {
    it(`when the bus connects to the SASL_SSL listener with ${mechanism} and the private CA, then it publishes and consumes`, async () => {
      const options = testBusOptions(`secure-${mechanism}`, {
        brokers: secure.saslSslBrokers,
        ssl: { ca },
        sasl: { mechanism, username: secure.username, password: secure.password },
      });
      assert.deepEqual(await roundTrip(options), [{ via: mechanism }]);
    });
  }

  it('when the bus presents the client certificate to the mutual-TLS listener, then it publishes and consumes', async () => {
    const options = testBusOptions('secure-mtls', {
      brokers: secure.mtlsBrokers,
      ssl: { ca, cert: readFileSync(secure.clientCertFile, 'utf8'), key: readFileSync(secure.clientKeyFile, 'utf8') },
    });
    assert.deepEqual(await roundTrip(options), [{ via: 'mtls' }]);
  });

  it('when the SCRAM password is wrong, then the bus is not healthy and ensureTopics fails', async () => {
    const bus = new KafkaEventBus(
      testBusOptions('secure-bad-password', { brokers: secure.saslSslBrokers, ssl: { ca }, sasl: { mechanism: 'scram-sha-512', username: secure.username, password: `${secure.password}x` } }),
    );
    opened.push(bus);
    assert.equal(await bus.health(), false);
    await assert.rejects(bus.ensureTopics([`secure.${randomUUID().slice(0, 8)}`]));
  });

  it('when the broker certificate is not signed by a trusted CA (system CAs only), then the connection is refused', async () => {
    const bus = new KafkaEventBus(
      testBusOptions('secure-untrusted', { brokers: secure.saslSslBrokers, ssl: true, sasl: { mechanism: 'scram-sha-256', username: secure.username, password: secure.password } }),
    );
    opened.push(bus);
    assert.equal(await bus.health(), false);
  });

  it('when the mutual-TLS listener gets no client certificate, then the connection is refused', async () => {
    const bus = new KafkaEventBus(testBusOptions('secure-no-cert', { brokers: secure.mtlsBrokers, ssl: { ca } }));
    opened.push(bus);
    assert.equal(await bus.health(), false);
  });
});
