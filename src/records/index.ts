import { birth } from './birth.ts';
import { death } from './death.ts';
import { marriage } from './marriage.ts';
import { partnership } from './partnership.ts';

export { birth, death, marriage, partnership };

/** Every record type the service serves, in the order routes and documents list them. */
export const records = [birth, death, marriage, partnership] as const;
export type RecordName = (typeof records)[number]['name'];
