/**
 * The mock's sign-in over HTTP, as a caseworker's browser makes it: the form (its session cookie
 * and CSRF token), then the form sent with a name and roles. The session cookie to send after.
 */
import assert from 'node:assert/strict';

const cookieOf = (headers: Headers) => /lev_ui_session=([^;]+)/.exec(headers.get('set-cookie') ?? '')?.[1];

export async function signIn(url: string, roles: readonly string[], username = 'pages-test'): Promise<string> {
  const form = await fetch(`${url}/ui/sign-in`);
  const cookie = `lev_ui_session=${cookieOf(form.headers)}`;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] as string;
  const body = new URLSearchParams([['csrf', csrf], ['username', username], ...roles.map((role) => ['roles', role])]);
  const signed = await fetch(`${url}/ui/sign-in`, { method: 'POST', body, headers: { cookie }, redirect: 'manual' });
  assert.equal(signed.status, 303);
  return `lev_ui_session=${cookieOf(signed.headers)}`;
}
