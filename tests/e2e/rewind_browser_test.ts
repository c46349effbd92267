/**
 * "Rewind code to before this turn" in a real (headless) Chromium against the real
 * server and the mock LLM: three turns change files (a write; an edit after a read; a
 * shell command that appends and deletes), then Rewind to before turn 2 from the
 * desktop's hover button restores them; the later turn has nothing left to rewind; a
 * file changed between preview and Confirm makes the server refuse, and the dialog —
 * also on the phone, from the ⋯ menu, as a bottom sheet — shows the conflict with
 * Confirm disabled. The stats line's time stays the turns' worked time added up after the
 * rewind. Screenshots: desktop-interact-rewind*.png, phone-interact-*.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { noHorizontalScroll, openApp, screenshot, watchErrors } from "./browser.ts";
import { bigTargets, DESKTOP, newPage, PHONE } from "./approval_helpers.ts";
import { lastTurn, send, strip } from "./run_helpers.ts";
import { listed, openRewind, OTHER, startTask, userMsg, withServer } from "./interact_helpers.ts";

Deno.test(
  "rewind: restore to before turn 2, nothing left to rewind, conflicts block Confirm",
  async () => {
    await withServer(async ({ browser, server, home }) => {
      const ws = `${home}/DefaultProject`;
      const desk = await newPage(browser, DESKTOP);
      const d = desk.page;
      await openApp(d, server.url);
      await startTask(d, "rewinder", "full", "Full access", "Turn one: write story.txt");
      const done = () =>
        strip(lastTurn(d)).and(d.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
      await done();
      await send(d, "Turn two: edit it");
      await done();
      await send(d, "Turn three: shell");
      await done();
      assertEquals(await Deno.readTextFile(`${ws}/story.txt`), "two\nx\n");
      assert(!(await Deno.stat(`${ws}/other.txt`).catch(() => null)), "other.txt still there");

      await userMsg(d, 1).hover();
      const actions = userMsg(d, 1).locator("[data-testid=msg-actions]");
      await d.waitForFunction(
        (el) => getComputedStyle(el!).opacity === "1",
        await actions.elementHandle(),
      );
      const hidden = userMsg(d, 0).locator("[data-testid=msg-actions]");
      assertEquals(await hidden.evaluate((el) => getComputedStyle(el).opacity), "0", "hover only");
      await screenshot(d, "desktop-interact-rewind-hover");
      let dialog = await openRewind(d, 1, false);
      assertEquals((await listed(dialog, "restore")).sort(), ["other.txt", "story.txt"]);
      assertEquals(await listed(dialog, "remove"), []);
      assertEquals(await dialog.locator("[data-testid=rewind-conflicts]").count(), 0);
      assertMatch(await dialog.locator("[data-testid=rewind-note]").innerText(), /shell commands/);
      await screenshot(d, "desktop-interact-rewind");
      await dialog.locator("[data-testid=rewind-confirm]").click();
      assertEquals(
        await dialog.locator("[data-testid=rewind-done]").innerText(),
        "Restored 2 files.",
      );
      assertEquals(await Deno.readTextFile(`${ws}/story.txt`), "one\n", "as after turn 1");
      assertEquals(await Deno.readTextFile(`${ws}/other.txt`), OTHER);
      await dialog.locator("[data-testid=rewind-close]").click();
      await dialog.waitFor({ state: "detached" });

      // The stats line's time is what the turns' "Worked …" lines say, added up: the
      // rewind, recorded after them, is no work of theirs.
      await d.locator("[data-testid=rewind-band]").waitFor();
      const worked = await d.locator("[data-testid=turn-status]").evaluateAll((els) =>
        els.map((el) => Number(el.getAttribute("data-ms")))
      );
      assertEquals(worked.length, 3, "three turns with their time");
      const total = d.locator("[data-testid=stats-line] [data-stat=duration]");
      assertEquals(Number(await total.getAttribute("data-ms")), worked.reduce((a, b) => a + b));
      assertMatch(await total.innerText(), /^worked (<1s|\d+s|\d+m \d+s)$/);
      await screenshot(d, "desktop-rewind-worked");

      // The later turns' checkpoints are used up: nothing to rewind there.
      dialog = await openRewind(d, 2, false);
      await dialog.locator("[data-testid=rewind-empty]").waitFor();
      await d.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });

      // The file changes between preview and Confirm: the server refuses, nothing is written.
      dialog = await openRewind(d, 0, false);
      assertEquals(await listed(dialog, "remove"), ["story.txt"]);
      await Deno.writeTextFile(`${ws}/story.txt`, "edited by hand\n");
      await dialog.locator("[data-testid=rewind-confirm]").click();
      await dialog.locator("[data-testid=rewind-conflicts]").waitFor();
      assertEquals(
        await dialog.locator("[data-testid=rewind-error]").innerText(),
        "Nothing was rewound: files changed since the preview. Here is the current state.",
      );
      assertEquals(
        await dialog.locator("[data-testid=rewind-reason]").getAttribute("data-code"),
        "changed",
      );
      assertEquals(await listed(dialog, "conflicts"), ["story.txt"]);
      assert(await dialog.locator("[data-testid=rewind-confirm]").isDisabled(), "confirm enabled");
      assertEquals(await Deno.readTextFile(`${ws}/story.txt`), "edited by hand\n");
      await screenshot(d, "desktop-interact-rewind-conflict");
      await dialog.locator("[data-testid=rewind-cancel]").click();

      // On the phone, in Chinese: the ⋯ menu, a bottom sheet with the conflict (its
      // reason and the shell note in Chinese) and Confirm disabled.
      const zhContext = await browser.newContext({ viewport: PHONE, locale: "zh-CN" });
      const zhPage = await zhContext.newPage();
      const phone = { page: zhPage, errors: watchErrors(zhPage) };
      const p = phone.page;
      await openApp(p, d.url().replace(/^.*#/, `${server.url}#`));
      await userMsg(p, 0).waitFor();
      await p.locator("[data-testid=stats-line] [data-stat=duration]").waitFor();
      await screenshot(p, "phone-rewind-worked");
      await bigTargets(userMsg(p, 0).locator("[data-testid=msg-menu]"));
      await userMsg(p, 0).locator("[data-testid=msg-menu]").click();
      await p.locator("[data-testid=msg-menu-menu]").waitFor();
      await screenshot(p, "phone-interact-msg-menu");
      await p.keyboard.press("Escape");
      await p.locator("[data-testid=msg-menu-menu]").waitFor({ state: "detached" });
      dialog = await openRewind(p, 0, true);
      assertEquals(await listed(dialog, "conflicts"), ["story.txt"]);
      assertEquals(await dialog.locator(".rw-reason").innerText(), "此后在智能体之外被修改过");
      assertMatch(await dialog.locator("[data-testid=rewind-note]").innerText(), /快照.*2 MB/);
      assert(await dialog.locator("[data-testid=rewind-confirm]").isDisabled(), "confirm enabled");
      await dialog.locator("[data-testid=rewind-why]").waitFor();
      const box = await dialog.boundingBox();
      assert(box && Math.abs(box.y + box.height - PHONE.height) < 2, "not a bottom sheet");
      await bigTargets(dialog.locator(".dialog-foot button"));
      await noHorizontalScroll(p, PHONE.width);
      await screenshot(p, "phone-interact-rewind-conflict");
      assertEquals(desk.errors, [], "desktop page errors");
      assertEquals(phone.errors, [], "phone page errors");
    });
  },
);
