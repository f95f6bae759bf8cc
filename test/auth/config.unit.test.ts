/**
 * The authentication settings: AUTH_MODE falls back to mock only without
 * DATABASE_URL, each mode's own settings are required, and settings of
 * another mode are refused rather than silently ignored.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../src/errors.ts';
import { loadConfig } from '../../src/config/index.ts';

const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const OIDC = { AUTH_MODE: 'oidc', OIDC_ISSUER: 'https://id.example.gov.uk/realms/lev', OIDC_AUDIENCE: 'lev-api' };

const refused = (env: Record<string, string>, message: RegExp) =>
  assert.throws(
    () => loadConfig(env),
    (error: Error) => error instanceof ConfigError && message.test(error.message),
  );

test('without DATABASE_URL, AUTH_MODE defaults to mock', () => {
  assert.deepEqual(loadConfig({}).auth, { mode: 'mock', enforceRoles: false });
});

test('MOCK_ENFORCE_ROLES is read in mock mode and refused in the others, which always enforce roles', () => {
  assert.deepEqual(loadConfig({ MOCK_ENFORCE_ROLES: 'true' }).auth, { mode: 'mock', enforceRoles: true });
  refused({ MOCK_ENFORCE_ROLES: 'yes' }, /MOCK_ENFORCE_ROLES="yes"/);
  refused({ ...OIDC, MOCK_ENFORCE_ROLES: 'true' }, /MOCK_ENFORCE_ROLES is set, but AUTH_MODE is oidc/);
  refused(
    { AUTH_MODE: 'proxy', TRUSTED_PROXIES: '10.0.0.1', MOCK_ENFORCE_ROLES: 'false' },
    /MOCK_ENFORCE_ROLES is set, but AUTH_MODE is proxy/,
  );
});

test('OIDC_MAX_TOKEN_LIFETIME_S: a day by default, bounded, and only for oidc', () => {
  const auth = loadConfig(OIDC).auth;
  assert.ok(auth?.mode === 'oidc');
  assert.equal(auth.maxTokenLifetimeS, 86_400);
  const strict = loadConfig({ ...OIDC, OIDC_MAX_TOKEN_LIFETIME_S: '900' }).auth;
  assert.ok(strict?.mode === 'oidc');
  assert.equal(strict.maxTokenLifetimeS, 900);
  refused({ ...OIDC, OIDC_MAX_TOKEN_LIFETIME_S: '1e300' }, /OIDC_MAX_TOKEN_LIFETIME_S=/);
  refused({ ...OIDC, OIDC_MAX_TOKEN_LIFETIME_S: '0' }, /OIDC_MAX_TOKEN_LIFETIME_S=/);
  refused({ OIDC_MAX_TOKEN_LIFETIME_S: '600' }, /OIDC_MAX_TOKEN_LIFETIME_S is set, but AUTH_MODE is mock/);
});

test('with DATABASE_URL, AUTH_MODE must be given: no fallback to believing headers', () => {
  refused({ DATABASE_URL }, /AUTH_MODE is not set: with DATABASE_URL .* must be given explicitly/);
  refused({ DATABASE_URL, AUTH_MODE: '' }, /AUTH_MODE is not set/);
  assert.deepEqual(
    loadConfig({ DATABASE_URL, AUTH_MODE: 'mock' }).auth,
    { mode: 'mock', enforceRoles: false },
    'mock, when said',
  );
  assert.equal(loadConfig({ DATABASE_URL, ...OIDC }).auth?.mode, 'oidc');
  assert.equal(loadConfig({ DATABASE_URL, AUTH_MODE: 'proxy', TRUSTED_PROXIES: '10.0.0.1' }).auth?.mode, 'proxy');
});

test('commands that serve nothing (migrate, load, audit) need no AUTH_MODE', () => {
  const config = loadConfig({ DATABASE_URL }, { serving: false });
  assert.equal(config.database?.url, DATABASE_URL);
  assert.equal(config.auth, undefined);
});

test('an unknown AUTH_MODE is refused', () => {
  refused({ AUTH_MODE: 'none' }, /AUTH_MODE="none"/);
});

test('oidc needs the issuer and the audience, and reads the claim settings', () => {
  refused({ AUTH_MODE: 'oidc' }, /OIDC_ISSUER is not set[\s\S]*OIDC_AUDIENCE is not set/);
  refused({ ...OIDC, OIDC_ISSUER: 'id.example.gov.uk' }, /OIDC_ISSUER=/);
  refused({ ...OIDC, OIDC_CLOCK_TOLERANCE_S: '3600' }, /OIDC_CLOCK_TOLERANCE_S=/);
  const auth = loadConfig(OIDC).auth;
  assert.ok(auth?.mode === 'oidc');
  assert.equal(auth.issuer, OIDC.OIDC_ISSUER);
  assert.equal(auth.clockToleranceS, 30);
  assert.equal(auth.jwksCooldownS, 30);
  assert.deepEqual(
    auth.claims.roles.map((path) => path.segments),
    [
      ['realm_access', 'roles'],
      ['resource_access', 'lev-api', 'roles'],
    ],
  );
  assert.deepEqual(
    auth.claims.username.map((path) => path.name),
    ['preferred_username', 'sub'],
  );
  const dotted = loadConfig({ ...OIDC, OIDC_AUDIENCE: 'https://lev.example.gov.uk' }).auth;
  assert.ok(dotted?.mode === 'oidc');
  assert.deepEqual(
    dotted.claims.roles[1].segments,
    ['resource_access', 'https://lev.example.gov.uk', 'roles'],
    'an audience with dots stays one segment',
  );
});

test('proxy needs TRUSTED_PROXIES, each an address or a CIDR range, never everything', () => {
  refused({ AUTH_MODE: 'proxy' }, /TRUSTED_PROXIES is not set/);
  refused(
    { AUTH_MODE: 'proxy', TRUSTED_PROXIES: 'proxy.internal' },
    /'proxy.internal' is not an IP address or a CIDR range/,
  );
  refused({ AUTH_MODE: 'proxy', TRUSTED_PROXIES: '10.0.0.0/33' }, /prefix length that is not 0 to 32/);
  refused({ AUTH_MODE: 'proxy', TRUSTED_PROXIES: '0.0.0.0/0' }, /trusts every address/);
  refused({ AUTH_MODE: 'proxy', TRUSTED_PROXIES: '10.0.0.1,,10.0.0.2' }, /'' is not an IP address/);
  assert.deepEqual(loadConfig({ AUTH_MODE: 'proxy', TRUSTED_PROXIES: '10.0.0.1, 192.168.0.0/16,fd00::/8' }).auth, {
    mode: 'proxy',
    trustedProxies: ['10.0.0.1', '192.168.0.0/16', 'fd00::/8'],
  });
});

test("another mode's settings are refused, not ignored", () => {
  refused({ OIDC_ISSUER: OIDC.OIDC_ISSUER }, /OIDC_ISSUER is set, but AUTH_MODE is mock, not oidc/);
  refused(
    { AUTH_MODE: 'proxy', TRUSTED_PROXIES: '10.0.0.1', OIDC_CLOCK_TOLERANCE_S: '5' },
    /OIDC_CLOCK_TOLERANCE_S is set, but AUTH_MODE is proxy/,
  );
  refused({ ...OIDC, TRUSTED_PROXIES: '10.0.0.1' }, /TRUSTED_PROXIES is set, but AUTH_MODE is oidc, not proxy/);
});
