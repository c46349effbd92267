/**
 * Translation lookup. `t()` reads the `lang` signal, so a component that calls it
 * re-renders when the language changes.
 *
 * @example
 * t("conn.reconnecting", { n: 3 }); // "Reconnecting… (attempt 3)"
 */
import { signal } from "@preact/signals";
import { lang } from "../state/prefs.js";
import en from "./en.js";

/** @typedef {keyof typeof en} MsgKey a message key (every key has an English text) */

/**
 * The dictionaries by language. English is part of the first screen's code (in a build,
 * only the keys that code uses: see {@link LOADERS}); Chinese is a chunk of its own,
 * loaded by {@link loadLang} (until then, English shows).
 * @type {Record<string, Record<string, string>>}
 */
export const DICTS = { "en-US": en, "zh-CN": {} };

/** Bumped when a dictionary arrives, so components that called t() render again. */
const loadedDicts = signal(0);

/**
 * What completes each language's dictionary. Chinese is all in its chunk. English is in
 * the first screen's script, but the build moves the keys that script does not use into
 * `en_more.js` (empty in the source tree, where en.js holds every key): a view loaded on
 * demand waits for it ({@link stringsReady}).
 * @type {Record<string, () => Promise<{default: Record<string, string>}>>}
 */
const LOADERS = {
  "en-US": () => import("./en_more.js"),
  "zh-CN": () => import("./zh.js"),
};
/** @type {Map<string, Promise<void>>} */
const loading = new Map();

/**
 * Fetches the rest of `l`'s dictionary unless it is here already.
 * @param {string} l
 * @returns {Promise<void>} rejects when it could not be fetched (a later call tries again)
 */
function fetchDict(l) {
  const load = LOADERS[l];
  if (!load) return Promise.resolve();
  let p = loading.get(l);
  if (!p) {
    p = load().then(
      (m) => {
        Object.assign(DICTS[l], m.default);
        loadedDicts.value++;
      },
      (e) => {
        loading.delete(l);
        throw e;
      },
    );
    loading.set(l, p);
  }
  return p;
}

/**
 * Fetches the dictionary of `l` unless it is here already; resolves when it is (or
 * failed: then English stays, and the error is logged).
 * @param {string} l
 */
export function loadLang(l) {
  return fetchDict(l).catch((e) => console.error(`reinagent: could not load the ${l} strings`, e));
}

/**
 * Resolves when every string of the current language is here, and rejects when they
 * could not be fetched: what a view loaded on demand waits for beside its own code.
 * Languages without a dictionary of their own read English.
 */
export function stringsReady() {
  const l = lang.value;
  return fetchDict(l in LOADERS ? l : "en-US");
}

/** Whether a key missing from the first screen's English has asked for the rest once. */
let askedForMore = false;

/** The current language's dictionary, fetching it on first use. */
function langDict() {
  const l = lang.value;
  void loadedDicts.value; // read, so a caller renders again when a dictionary arrives
  if (l !== "en-US" && !loading.has(l)) loadLang(l);
  return DICTS[l] ?? en;
}

/**
 * Fills `{name}` placeholders from `params`; unknown placeholders stay as written.
 * @param {string} template
 * @param {Record<string, unknown>} [params]
 */
export function format(template, params) {
  if (!params) return template;
  return template.replace(
    /\{(\w+)\}/g,
    (m, k) => Object.hasOwn(params, k) ? String(params[k]) : m,
  );
}

/**
 * The string for `key` in the current language (English when missing there; the key
 * itself when missing everywhere, so a gap is visible instead of blank).
 * @param {MsgKey} key
 * @param {Record<string, unknown>} [params]
 */
export function t(key, params) {
  const text = langDict()[key] ?? en[key];
  if (text === undefined && !askedForMore) {
    // A key the build did not see the first screen use (made up at run time, say): fetch
    // the rest of English once; t() callers render again when it is here.
    askedForMore = true;
    loadLang("en-US");
  }
  return format(text ?? key, params);
}

/**
 * Like {@link t} with a count: uses `<key>.one` when `n` is 1 and the current language
 * has that form (languages without a singular form simply leave it out).
 * @param {MsgKey} key
 * @param {number} n
 * @param {Record<string, unknown>} [params] `n` is added
 */
export function tn(key, n, params) {
  const dict = langDict();
  const one = n === 1 && dict[`${key}.one`] !== undefined;
  return t(/** @type {any} */ (one ? `${key}.one` : key), { n, ...params });
}
