/** This library's version (package.json's, checked by version.test.ts), sent in its User-Agent. */
export const VERSION = '0.1.0';
