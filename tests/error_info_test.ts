/** One helper builds every error record: what is not known stays null, hints follow the category. */
import { assertEquals } from "./helpers/assert.ts";
import { abortedError, errorInfo, ProviderError } from "../agent/providers/errors.ts";

Deno.test("errorInfo: unknowns null, category from the status, the category's hint, message as chain", () => {
  assertEquals(errorInfo("boom"), {
    category: "unknown",
    message: "boom",
    status: null,
    url: null,
    upstream: null,
    hint: "An unexpected error occurred.",
    chain: ["boom"],
  });
  const rate = errorInfo("HTTP 429", { status: 429, url: "https://x.test/v1", chain: ["a", "b"] });
  assertEquals([rate.category, rate.hint, rate.url, rate.chain], [
    "rate-limit",
    "The provider is rate-limiting requests. Wait a moment or switch model.",
    "https://x.test/v1",
    ["a", "b"],
  ]);
  assertEquals(errorInfo("no route", {}, true).category, "network");
  const own = errorInfo("gone", { category: "request", hint: "Pick another model." });
  assertEquals([own.category, own.hint], ["request", "Pick another model."]);
});

Deno.test("ProviderError builds its info with the same helper", () => {
  assertEquals(new ProviderError({ message: "HTTP 500", status: 500 }).info, {
    ...errorInfo("HTTP 500", { status: 500 }),
    category: "server",
  });
  assertEquals(abortedError().info, {
    category: "aborted",
    message: "stopped by user",
    status: null,
    url: null,
    upstream: null,
    hint: "Stopped.",
    chain: ["stopped by user"],
  });
});
