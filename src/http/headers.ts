/**
 * The security headers every answer carries, and the two Content-Security-
 * Policies: JSON answers may load nothing at all; /docs (Swagger UI, served
 * from here, nothing from elsewhere) may load its own scripts, styles and
 * images and fetch the OpenAPI document, from this origin only.
 */
const RESPONSE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
} as const;

export const API_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // The one inline style Swagger UI applies: the <style> of its logo's SVG (swagger-ui-standalone-preset.js).
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Sent only over HTTPS (RFC 6797 section 7.2: a browser ignores it over HTTP). */
export const HSTS = 'max-age=31536000; includeSubDomains';

const isDocs = (url: string) => url === '/docs' || url.startsWith('/docs/') || url.startsWith('/docs?');

const variants = new Map<string, Readonly<Record<string, string>>>();
for (const docs of [false, true]) {
  for (const tls of [false, true]) {
    variants.set(`${docs}/${tls}`, {
      ...RESPONSE_HEADERS,
      'content-security-policy': docs ? DOCS_CSP : API_CSP,
      ...(tls ? { 'strict-transport-security': HSTS } : {}),
    });
  }
}

/** The headers for an answer to `url`: the common ones, its CSP, and HSTS over TLS. */
export function securityHeaders(url: string, tls: boolean): Readonly<Record<string, string>> {
  return variants.get(`${isDocs(url)}/${tls}`) as Readonly<Record<string, string>>;
}
