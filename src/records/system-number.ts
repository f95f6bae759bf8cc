/**
 * The system number: the id every registration has, printed bottom-left on its certificate. Up to
 * 18 digits (PostgreSQL's bigint holds them all, and JavaScript's numbers exactly up to 2^53);
 * leading zeros are ignored where a caller types one.
 */
const SYSTEM_NUMBER_DIGITS = 18;

/** Digits only, at most 18 of them, leading zeros aside: what a route or a form accepts. */
export const SYSTEM_NUMBER_PATTERN = `^0*[0-9]{1,${SYSTEM_NUMBER_DIGITS}}$`;

const SYSTEM_NUMBER = new RegExp(SYSTEM_NUMBER_PATTERN);

export const isSystemNumber = (text: string): boolean => SYSTEM_NUMBER.test(text);

/** The number as the register keys it: leading zeros dropped (`0123` is 123, `000` is 0). */
export const canonicalSystemNumber = (text: string): string => text.replace(/^0+(?=\d)/, '');

const CANONICAL = new RegExp(`^(0|[1-9][0-9]{0,${SYSTEM_NUMBER_DIGITS - 1}})$`);

/** Whether `text` is a system number written as canonicalSystemNumber writes it. */
export const isCanonicalSystemNumber = (text: string): boolean => CANONICAL.test(text);
