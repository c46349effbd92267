/**
 * Handlers for provider, model and system-settings ops. The rules live in
 * `server/providers/catalog*.ts`; handlers only pick the repositories, convert
 * providers to their public (masked) form and announce changes on topic `settings`.
 */
import { type PROVIDER_OP_ARGS, SETTINGS_TOPIC } from "../../protocol/index.ts";
import {
  addProvider,
  type CatalogRepos,
  deleteProvider,
  getSettings,
  listProviders,
  presets,
  setDefaultModel,
  setSettings,
  toPublic,
  updateProvider,
} from "../providers/catalog.ts";
import {
  addModel,
  deleteModel,
  fetchModels,
  setModelsEnabled,
  testModel,
  updateModel,
} from "../providers/catalog_models.ts";
import { type OpContext, services, whoIs } from "./context.ts";
import { loweredSettings } from "../sessions/safety.ts";
import { sandboxStatus } from "../../tools/exec/bwrap.ts";
import { recordKeyEnvName } from "../agent/command_policy.ts";
import type { OpHandlers } from "./types.ts";

/** The catalog's repositories (`store_unavailable` when the database is down). */
const repos = (ctx: OpContext): CatalogRepos => services(ctx).repos;

/** Tells every subscribed client to refresh its provider/settings view. */
function changed<T>(ctx: OpContext, result: T, kind: "providers" | "settings" = "providers"): T {
  ctx.hub.publish(SETTINGS_TOPIC, { kind });
  return result;
}

export const PROVIDER_HANDLERS: OpHandlers<keyof typeof PROVIDER_OP_ARGS> = {
  "settings.subscribe": async (ctx) => {
    const probe = await sandboxStatus();
    // Snapshot and subscription in the same tick: no event can fall between them.
    const r = repos(ctx);
    ctx.client.topics.add(SETTINGS_TOPIC);
    const s = getSettings(r);
    const shellSandbox = s.sandboxLevel === "off" ? "off" : probe.available ? "ok" : "unavailable";
    return {
      providers: listProviders(r),
      ...s,
      shellSandbox,
      sandboxAvailable: probe.available,
      seq: ctx.hub.lastSeq,
    };
  },
  "providers.list": (ctx) => {
    const r = repos(ctx);
    return { providers: listProviders(r), defaultModel: getSettings(r).defaultModel };
  },
  "providers.presets": () => ({ presets: presets() }),
  "providers.add": (ctx, a) => {
    const { keyEnvName, ...fields } = a;
    const provider = toPublic(addProvider(repos(ctx), fields));
    if (keyEnvName) recordKeyEnvName(repos(ctx), keyEnvName);
    return changed(ctx, { provider });
  },
  "providers.update": (ctx, a) => {
    const { id, ...patch } = a;
    return changed(ctx, { provider: toPublic(updateProvider(repos(ctx), id, patch)) });
  },
  "providers.delete": (ctx, a) => changed(ctx, { id: a.id, ...deleteProvider(repos(ctx), a.id) }),
  "models.fetch": async (ctx, a) => {
    const r = await fetchModels(repos(ctx), a.providerId);
    return changed(ctx, { ...r, provider: toPublic(r.provider) });
  },
  "models.add": (ctx, a) => {
    const r = addModel(repos(ctx), a.providerId, a.model);
    return changed(ctx, { provider: toPublic(r.provider), model: r.model });
  },
  "models.update": (ctx, a) => {
    const r = updateModel(repos(ctx), a.providerId, a.modelId, a.patch);
    return changed(ctx, { provider: toPublic(r.provider), model: r.model });
  },
  "models.delete": (ctx, a) => {
    const r = deleteModel(repos(ctx), a.providerId, a.modelId);
    return changed(ctx, { provider: toPublic(r.provider), defaultCleared: r.defaultCleared });
  },
  "models.setEnabled": (ctx, a) => {
    const r = setModelsEnabled(repos(ctx), a.providerId, a.modelIds, a.enabled);
    const result = { provider: toPublic(r.provider), changed: r.changed };
    return r.changed ? changed(ctx, result) : result;
  },
  "models.test": (ctx, a) => testModel(repos(ctx), a.providerId, a.modelId),
  "settings.get": (ctx) => getSettings(repos(ctx)),
  "settings.setDefaultModel": (ctx, a) =>
    changed(
      ctx,
      setDefaultModel(repos(ctx), { providerId: a.providerId, modelId: a.modelId }),
      "settings",
    ),
  "settings.set": (ctx, a) => {
    const before = getSettings(repos(ctx));
    const after = setSettings(repos(ctx), a);
    ctx.safety.announce(whoIs(ctx), loweredSettings(before, after));
    return changed(ctx, after, "settings");
  },
};
