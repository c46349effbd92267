/** The program version, from deno.json (part of the module graph, so also compiled in). */
import config from "../deno.json" with { type: "json" };

export const VERSION: string = config.version;
