/**
 * Version 17: a placeholder, so that this branch's version 18 (the wallet pick-up) follows an
 * unbroken list. Another branch takes version 17; when it is merged this file and its pin go and
 * its migration takes the number. It changes nothing.
 */
export const name = 'reserved';

export const reserved = `SELECT 1;`;
