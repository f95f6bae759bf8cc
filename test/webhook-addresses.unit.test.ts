/**
 * Where a webhook may point, with no I/O: every IPv6 spelling of an internal IPv4 address judged by
 * the IPv4 address it carries, the IANA special-purpose ranges of both families refused unless
 * WEBHOOK_ALLOWED_NETWORKS lists them, and the URL's own form (its length included).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_WEBHOOK_URL_LENGTH,
  addressProblem,
  networkList,
  normalisedWebhookUrl,
  webhookUrlProblem,
} from '../src/webhook-addresses.ts';

const none = networkList([]);

test('IPv6 forms that carry an internal IPv4 address are refused as that address', () => {
  const forms: [string, RegExp][] = [
    ['::7f00:1', /carries the IPv4 address 127\.0\.0\.1, and 127\.0\.0\.1 is a loopback address/], // IPv4-compatible
    ['::127.0.0.1', /127\.0\.0\.1 is a loopback address/],
    ['::ffff:0:7f00:1', /carries the IPv4 address 127\.0\.0\.1/], // IPv4-translated
    ['64:ff9b::7f00:1', /carries the IPv4 address 127\.0\.0\.1/], // NAT64
    ['64:ff9b::a9fe:a9fe', /169\.254\.169\.254 is a link-local address/], // NAT64 of the metadata service
    ['2002:7f00:1::', /carries the IPv4 address 127\.0\.0\.1/], // 6to4
    ['2002:a9fe:a9fe::1', /169\.254\.169\.254 is a link-local address/],
    ['::ffff:7f00:1', /127\.0\.0\.1 is a loopback address/], // IPv4-mapped, as URLs write it
    ['::ffff:192.168.1.1', /192\.168\.1\.1 is a private address/],
    ['::ffff:a00:1', /10\.0\.0\.1 is a private address/],
  ];
  for (const [address, reason] of forms) assert.match(addressProblem(address, none) ?? 'allowed', reason, address);
  // The same forms carrying a public address are that public address.
  for (const address of ['64:ff9b::5db8:d822', '::ffff:93.184.216.34', '2002:5db8:d822::1'])
    assert.equal(addressProblem(address, none), undefined, address);
});

test('the IANA special-purpose ranges of both families are refused', () => {
  const special = [
    '0.0.0.0',
    '10.1.2.3',
    '100.64.0.1',
    '127.0.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '192.0.0.8',
    '192.0.2.1',
    '192.31.196.1',
    '192.52.193.1',
    '192.88.99.1',
    '192.168.0.1',
    '192.175.48.1',
    '198.18.0.1',
    '198.51.100.1',
    '203.0.113.1',
    '224.0.0.1',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '100::1',
    '100:0:0:1::1',
    '64:ff9b:1::1',
    '2001::1',
    '2001:2::1',
    '2001:3::1',
    '2001:4:112::1',
    '2001:10::1',
    '2001:20::1',
    '2001:30::1',
    '2001:db8::1',
    '2620:4f:8000::1',
    '3fff::1',
    '5f00::1',
    'fc00::1',
    'fd12::1',
    'fe80::1',
    'fec0::1',
    'ff02::1',
  ];
  for (const address of special) assert.match(addressProblem(address, none) ?? 'allowed', /is a .* address/, address);
  for (const address of ['93.184.216.34', '8.8.8.8', '2a00:1450:4009:81d::200e', '2606:4700::6810:84e5'])
    assert.equal(addressProblem(address, none), undefined, address);
});

test('WEBHOOK_ALLOWED_NETWORKS lets a listed network through, by the address carried too', () => {
  const allowed = networkList(['10.20.0.0/16', 'fd12::/48', '127.0.0.0/8']);
  assert.equal(addressProblem('10.20.3.4', allowed), undefined);
  assert.equal(addressProblem('fd12::9', allowed), undefined);
  assert.equal(addressProblem('::ffff:10.20.3.4', allowed), undefined);
  assert.equal(addressProblem('64:ff9b::7f00:1', allowed), undefined);
  assert.match(addressProblem('10.21.0.1', allowed)!, /private/);
  assert.throws(() => networkList(['10.0.0.0']), /is no network/);
  assert.throws(() => networkList(['10.0.0.0/33']), /is no network/);
  assert.throws(() => networkList(['nonsense/8']), /is no network/);
});

test('a webhook URL longer than 2,048 characters is refused', () => {
  const url = (length: number) => `https://hooks.example/${'a'.repeat(length - 'https://hooks.example/'.length)}`;
  assert.equal(webhookUrlProblem(url(MAX_WEBHOOK_URL_LENGTH), false), undefined);
  assert.match(webhookUrlProblem(url(MAX_WEBHOOK_URL_LENGTH + 1), false)!, /at most 2048 characters, not 2049/);
  assert.match(webhookUrlProblem(url(5000), false)!, /at most 2048 characters/);
});

test(
  'a webhook URL with port 0, a space or a control character is refused; one taken is kept as the parser ' +
    'writes it',
  () => {
    assert.match(webhookUrlProblem('https://8.8.8.8:0/hook', false)!, /no port 0/);
    assert.match(webhookUrlProblem('https://hooks.example:00/hook', false)!, /no port 0/);
    for (const typed of [
      'https://hooks.example/a b',
      'https://hooks.example/a\r\nb',
      ' https://hooks.example/',
      'https://hooks.example/\t',
      'https://hooks.example/\u00a0',
      'https://hooks.example/\u0000',
      'https://hooks.example/\u0085',
    ]) {
      // The parser itself takes each of them, as another URL than the one typed.
      assert.ok(URL.canParse(typed), JSON.stringify(typed));
      assert.match(
        webhookUrlProblem(typed, false) ?? 'taken',
        /holds a space or a control character/,
        JSON.stringify(typed),
      );
    }
    assert.equal(webhookUrlProblem('https://hooks.example/a%20b', false), undefined);
    assert.equal(normalisedWebhookUrl('HTTPS://Hooks.Example:443/a/../hook?x=1'), 'https://hooks.example/hook?x=1');
  },
);
