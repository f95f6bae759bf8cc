/**
 * The built-in record types and their views, read once for the tests that import them: the
 * service's entry points read their own (`loadBuiltInTypes`) and pass them in.
 */
import { loadRecordTypes } from '../src/records/index.ts';
import { viewsOf } from '../src/records/views.ts';

export const builtInTypes = await loadRecordTypes();
export const views = viewsOf(builtInTypes);
