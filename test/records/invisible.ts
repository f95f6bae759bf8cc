/** Zero-width joiner and non-joiner, soft hyphen, byte-order mark (zero-width no-break space), word joiner. */
export const INVISIBLE = ['\u200d', '\u200c', '\u00ad', '\ufeff', '\u2060'];
