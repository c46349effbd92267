/**
 * Plugins: folders holding a `plugin.json` that contribute slash commands
 * (a folder of command files), hooks (the hooks format of `config.json`) and skills (a
 * folder of skill folders). Found in `<data dir>/plugins/*` and
 * `<workspace>/.reinagent/plugins/*`. A plugin can be switched off; its hooks (what it
 * runs) run only once trusted for exactly what they are (a fingerprint), as a workspace's
 * hooks do.
 *
 * Ops: `plugins.list {project?}` (subscribes to {@link PLUGINS_TOPIC}),
 * `plugins.setEnabled {path, enabled}`, `plugins.trust {path, fingerprint}`.
 */
import { bool, obj, type Schema, str } from "./schema.ts";
import type { HookView } from "./hooks.ts";

export const PLUGIN_LIMITS = {
  manifestBytes: 64 * 1024,
  /** Plugin folders read per plugins folder. */
  perDir: 100,
  nameChars: 64,
  versionChars: 40,
  descriptionChars: 500,
} as const;

/** Letters, digits, `-` `_` `.`; starts with a letter or digit. */
export const PLUGIN_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * `ok` (usable), `untrusted` (its hooks never trusted: they do not run), `changed` (its
 * hooks changed since trusted: they do not run), `invalid` (bad manifest or path: nothing
 * of it is used), `refused` (a link leading into the data folder or out of its project).
 */
export type PluginState = "ok" | "untrusted" | "changed" | "invalid" | "refused";

export interface PluginView {
  /** The plugin folder (as found; trust and switches are keyed by its real path). */
  path: string;
  scope: "user" | "workspace";
  /** The project it belongs to (null for the user's). */
  project: string | null;
  /** From the manifest; the folder name when the manifest cannot be read. */
  name: string;
  version: string;
  description: string;
  enabled: boolean;
  state: PluginState;
  error?: string;
  /** Contributions (absolute folders), as the manifest declares them. */
  commandsDir: string | null;
  skillsDir: string | null;
  hooks: HookView[];
  /** sha256 of the hooks (what `plugins.trust` binds to); "" without hooks. */
  fingerprint: string;
}

export type PluginsEvent = { kind: "changed" };
export const PLUGINS_TOPIC = "plugins";

const folderPath = str({ min: 1, max: 4096 });

export const PLUGIN_OP_ARGS = {
  /** The user's plugins and those of `project` (default: of every project). */
  "plugins.list": obj({ "project?": folderPath }),
  /** Switches a plugin on or off. */
  "plugins.setEnabled": obj({ path: folderPath, enabled: bool }),
  /** Trusts a plugin's hooks whose fingerprint `plugins.list` showed. */
  "plugins.trust": obj({
    path: folderPath,
    fingerprint: str({ min: 64, max: 64, pattern: /^[0-9a-f]{64}$/ }),
  }),
} satisfies Record<string, Schema>;

export interface PluginOpResults {
  "plugins.list": { plugins: PluginView[]; seq: number };
  "plugins.setEnabled": { plugin: PluginView };
  "plugins.trust": { plugin: PluginView };
}
