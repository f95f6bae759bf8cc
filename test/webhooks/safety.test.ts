/**
 * Where webhooks may go, over real sockets: a private address, a name resolving to loopback and a
 * redirect refused with a clear reason (and the redirect's target never called); HTTPS to a
 * receiver with a certificate from the test PKI, presenting the subscription's client
 * certificate (mTLS); an answer's body never in the log.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { destinationPolicy } from '../../src/webhooks/destination.ts';
import { createSender } from '../../src/webhooks/send.ts';
import { newSecret } from '../../src/webhooks/signing.ts';
import { startConfiguredDelivery } from '../../src/webhooks/start.ts';
import { type Source, loadSources } from '../../src/load/loader.ts';
import { emptyStore, onEnd } from '../helper.ts';
import { createPki } from '../auth/pki.ts';
import { SETTINGS, startReceiver, until } from './receiver.ts';
import { builtInType } from '../record-types.ts';

/** The issue's IPv6 spellings of internal IPv4 addresses, each a name resolves to. */
const INTERNAL_IPV6: Record<string, [string, string]> = {
  'compat.example': ['::7f00:1', '127.0.0.1'],
  'translated.example': ['::ffff:0:7f00:1', '127.0.0.1'],
  'nat64.example': ['64:ff9b::7f00:1', '127.0.0.1'],
  'metadata.example': ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
  'sixtofour.example': ['2002:7f00:1::', '127.0.0.1'],
};
const resolveEvil = async (host: string) =>
  host === 'evil.example'
    ? [{ address: '127.0.0.1', family: 4 }]
    : INTERNAL_IPV6[host]
      ? [{ address: INTERNAL_IPV6[host][0], family: 6 }]
      : [{ address: '93.184.216.34', family: 4 }];

test(
  'SSRF: private and special addresses, a name resolving to loopback, and redirects are refused with a ' +
    'clear reason',
  async (t) => {
    const sender = createSender({
      checker: destinationPolicy({ allowHttpLoopback: true, allowedNetworks: [], resolve: resolveEvil }),
      timeoutMs: 2000,
    });
    t.after(() => sender.close());
    const send = (url: string) => sender.send({ url }, {}, '{}');
    assert.deepEqual(await send('https://10.1.2.3/hook'), {
      error:
        'address not allowed: 10.1.2.3 is a private address (allow its network with WEBHOOK_ALLOWED_NETWORKS ' +
        'if the receiver really is there)',
      refused: true,
    });
    assert.match(
      (await send('https://169.254.169.254/latest/meta-data')).error!,
      /169\.254\.169\.254 is a link-local address/,
    );
    assert.match((await send('https://[::ffff:192.168.1.1]/')).error!, /192\.168\.1\.1 is a private address/);
    assert.match((await send('https://[fd00::1]/')).error!, /fd00::1 is a private \(unique local\) address/);
    assert.match(
      (await send('https://evil.example/hook')).error!,
      /^address not allowed: evil\.example resolves to 127\.0\.0\.1 is a loopback address/,
    );
    assert.match(
      (await send('http://evil.example/hook')).error!,
      /plain http only to a loopback address written in the URL/,
    );
    // Every IPv6 spelling of an internal IPv4 address, written in the URL and resolved from a name
    // (the check made on the address connected to, as for DNS rebinding).
    for (const [name, [address, ipv4]] of Object.entries(INTERNAL_IPV6)) {
      const carries = new RegExp(
        `carries the IPv4 address ${ipv4.replaceAll('.', '\\.')}, and ${ipv4.replaceAll('.', '\\.')} is a ` +
          `(loopback|link-local) address`,
      );
      const literal = await send(`https://[${address}]/hook`);
      assert.equal(literal.refused, true, address);
      assert.match(literal.error!, /^address not allowed: /, address);
      assert.match(literal.error!, carries, address);
      const resolved = await send(`https://${name}/hook`);
      assert.equal(resolved.refused, true, name);
      assert.match(
        resolved.error!,
        new RegExp(
          `^address not allowed: ${name.replaceAll('.', '\\.')} resolves to ${address.replaceAll('.', '\\.')} carries`,
        ),
        name,
      );
    }
    // A name that resolves to a public address at the check and an internal one when connecting: the
    // connection's own lookup refuses it.
    let lookups = 0;
    const rebinding = createSender({
      checker: destinationPolicy({
        allowHttpLoopback: false,
        allowedNetworks: [],
        resolve: async () => [
          { address: lookups++ === 0 ? '93.184.216.34' : '64:ff9b::7f00:1', family: lookups === 1 ? 4 : 6 },
        ],
      }),
      timeoutMs: 2000,
    });
    t.after(() => rebinding.close());
    const rebound = await rebinding.send({ url: 'https://rebind.example/hook' }, {}, '{}');
    assert.ok(lookups >= 2, 'the connection looked the name up again');
    assert.equal(rebound.refused, true, JSON.stringify(rebound));
    assert.match(rebound.error!, /64:ff9b::7f00:1 carries the IPv4 address 127\.0\.0\.1/);

    // A receiver that redirects to another: not followed.
    const target = await startReceiver(t);
    const redirecting = await startReceiver(t);
    redirecting.answer = () => ({ status: 307, headers: { location: target.url } });
    const redirected = await send(redirecting.url);
    assert.equal(redirected.status, 307);
    assert.equal(redirected.error, 'redirect not followed: the receiver answered 307 (a redirect elsewhere)');
    assert.equal(target.received.length, 0);

    // Allowed networks let an internal receiver through.
    const internal = createSender({
      checker: destinationPolicy({ allowHttpLoopback: false, allowedNetworks: ['10.1.0.0/16'], resolve: resolveEvil }),
      timeoutMs: 300,
    });
    t.after(() => internal.close());
    const allowed = await internal.send({ url: 'https://10.1.2.3:9/hook' }, {}, '{}');
    assert.equal(allowed.refused, undefined, JSON.stringify(allowed));
  },
);

test(
  "the worker records the refusal as the subscription's last error, audits it, and never logs a " + "receiver's answer",
  async (t) => {
    const store = await emptyStore(t, 'memory');
    const logged: string[] = [];
    const log = {
      info: (details: object, message: string) => void logged.push(JSON.stringify({ ...details, message })),
      warn: (details: object, message: string) => void logged.push(JSON.stringify({ ...details, message })),
    };
    const failing = await startReceiver(t);
    failing.answer = () => ({ status: 500 });
    await store.subscriptions.add({ client: 'evil', events: ['death.registered'], fields: [] });
    await store.webhooks.setEndpoint('evil', { url: 'https://evil.example/hook' }, { secret: newSecret() });
    await store.subscriptions.add({ client: 'failing', events: ['death.registered'], fields: [] });
    await store.webhooks.setEndpoint('failing', { url: failing.url }, { secret: newSecret() });
    const checker = destinationPolicy({ allowHttpLoopback: true, allowedNetworks: [], resolve: resolveEvil });
    const delivery = startConfiguredDelivery(SETTINGS, store, store.descriptions, log, undefined, {
      pollMs: 50,
      backoff: () => 100,
      sender: createSender({ checker, timeoutMs: 2000 }),
    });
    onEnd(t, () => delivery.stop());
    const death = {
      id: 7,
      deceased: { forenames: 'A', surname: 'B', dateOfDeath: '2024-03-01', dateOfBirth: '1940-01-01' },
      status: { blocked: false },
    };
    await loadSources(store.writer, builtInType('death'), [
      { name: 'one', size: undefined, open: () => [JSON.stringify(death)] } as Source,
    ]);
    await until(
      async () => (await store.webhooks.get('evil'))?.lastError !== undefined && failing.received.length > 1,
      'a refusal and a failure',
    );
    assert.match(
      (await store.webhooks.get('evil'))!.lastError!,
      /evil\.example resolves to 127\.0\.0\.1 is a loopback address/,
    );
    assert.equal((await store.webhooks.get('failing'))!.lastStatus, 500);
    assert.ok(logged.some((line) => /will retry/.test(line)));
    assert.ok(!logged.some((line) => /Jane Doe/.test(line)), 'the answer body is never logged');
  },
);

test(
  "HTTPS with the test PKI: the receiver's certificate checked against WEBHOOK_CA_FILE, the client " +
    'certificate presented (mTLS), signatures verified',
  async (t) => {
    const pki = await createPki(t);
    const ca = await pki.authority('receivers-ca');
    const server = await ca.issue('receiver', { usage: 'serverAuth' });
    const client = await ca.issue('lev-api-webhooks', { usage: 'clientAuth' });
    const receiver = await startReceiver(t, {
      cert: server.cert,
      key: server.key,
      ca: ca.cert,
      requestCert: true,
      rejectUnauthorized: true,
    });
    const store = await emptyStore(t, 'memory');
    const secret = newSecret();
    await store.subscriptions.add({ client: 'tls', events: ['death.registered'], fields: [] });
    await store.webhooks.setEndpoint(
      'tls',
      { url: receiver.url, tlsCert: client.certPath, tlsKey: client.keyPath },
      { secret },
    );
    await store.subscriptions.add({ client: 'no-cert', events: ['death.registered'], fields: [] });
    await store.webhooks.setEndpoint('no-cert', { url: receiver.url }, { secret: newSecret() });
    const delivery = startConfiguredDelivery(
      { ...SETTINGS, allowHttpLoopback: false, allowedNetworks: ['127.0.0.0/8', '::1/128'], ca: ca.cert.toString() },
      store,
      store.descriptions,
      { info() {}, warn() {} },
      undefined,
      {
        pollMs: 50,
        backoff: () => 100,
      },
    );
    onEnd(t, () => delivery.stop());
    const death = {
      id: 8,
      deceased: { forenames: 'A', surname: 'B', dateOfDeath: '2024-03-01', dateOfBirth: '1940-01-01' },
      status: { blocked: false },
    };
    await loadSources(store.writer, builtInType('death'), [
      { name: 'one', size: undefined, open: () => [JSON.stringify(death)] } as Source,
    ]);
    await until(() => receiver.taken().length === 1, 'the HTTPS delivery');
    assert.equal(receiver.received[0].clientCertificate, 'lev-api-webhooks');
    new Webhook(secret).verify(receiver.received[0].body, receiver.received[0].headers);
    // Without a client certificate the receiver's TLS handshake refuses the connection.
    await until(async () => (await store.webhooks.get('no-cert'))?.lastError !== undefined, 'the refused handshake');
    assert.match((await store.webhooks.get('no-cert'))!.lastError!, /^(tls|reset): /);
  },
);
