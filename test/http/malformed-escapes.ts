/**
 * Escapes no decoder may turn into text: bare or half escapes, stray bytes, a lone surrogate, overlong
 * forms, a cut sequence.
 */
export const MALFORMED_ESCAPES = [
  '%',
  '%G1',
  'a%2',
  '%FF',
  'Smith%FF',
  '%ED%A0%80',
  'a%ED%BF%BFb',
  '%C0%80',
  '%C0%AF',
  '%E0%A4%A',
  '%F0%9F%98',
];
