/**
 * The English strings the first screen does not use, fetched with the first view loaded
 * on demand (see `LOADERS` in index.js). Empty here: en.js holds every key in the source
 * tree, and the build fills this module with the keys it leaves out of the first screen's
 * script (scripts/build/first_screen.ts).
 * @type {Record<string, string>}
 */
export default {};
