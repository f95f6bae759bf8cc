/**
 * The configuration's types are its schemas' Static<>: what loadConfig and loadUiConfig build must
 * pass those schemas, or a type would promise what the loader does not give.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { Config, loadConfig } from '../../src/config/index.ts';
import { UiConfig, loadUiConfig } from '../../src/config/ui.ts';

test('the configuration loadConfig builds passes the Config schema its type is derived from', () => {
  for (const env of [
    {},
    {
      AUTH_MODE: 'oidc',
      OIDC_ISSUER: 'https://issuer.test',
      OIDC_AUDIENCE: 'lev',
      RATE_LIMIT_PER_MINUTE: '60',
      REDIS_URL: 'redis://127.0.0.1:6379',
    },
    {
      DATABASE_URL: 'postgres://db/lev',
      DATABASE_READ_URLS: 'postgres://replica/lev',
      AUTH_MODE: 'proxy',
      TRUSTED_PROXIES: '10.0.0.0/8',
    },
  ]) {
    const config = loadConfig(env);
    assert.deepEqual(
      [...Value.Errors(Config, config)].map((error) => `${error.path}: ${error.message}`),
      [],
    );
  }
});

test("the pages' configuration passes the UiConfig schema", () => {
  const env = {
    UI_API_URL: 'https://api.test',
    AUTH_MODE: 'oidc',
    OIDC_ISSUER: 'https://issuer.test',
    UI_PUBLIC_URL: 'https://pages.test',
    UI_OIDC_CLIENT_ID: 'pages',
    UI_OIDC_CLIENT_SECRET: 'secret',
  };
  assert.deepEqual(
    [...Value.Errors(UiConfig, loadUiConfig(env))].map((error) => `${error.path}: ${error.message}`),
    [],
  );
});
