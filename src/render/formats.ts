import { FormatRegistry } from '@sinclair/typebox';
import { isIsoDate } from '../records/dates.ts';

// TypeBox knows no formats until they are registered; stored dates must be real days.
if (!FormatRegistry.Has('date')) FormatRegistry.Set('date', isIsoDate);
