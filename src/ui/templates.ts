/**
 * The pages' Nunjucks environment: this folder's templates, then GOV.UK Frontend's (its page
 * template and component macros), escaped by default.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import nunjucks from 'nunjucks';

/** GOV.UK Frontend's dist folder: its templates, stylesheet, script and assets. */
export const govukFrontendDist = join(
  dirname(createRequire(import.meta.url).resolve('govuk-frontend/package.json')),
  'dist',
);

// The templates stay in src/ (the compiler copies no .njk): two levels up from here is the
// project's root whether this runs from src/ui or from dist/ui.
export const templatesFolder = fileURLToPath(new URL('../../src/ui/views', import.meta.url));

export function createTemplates(): nunjucks.Environment {
  return new nunjucks.Environment(new nunjucks.FileSystemLoader([templatesFolder, govukFrontendDist]), {
    autoescape: true,
    throwOnUndefined: false,
  });
}
