/**
 * A rewind is visible, in a real (headless) Chromium against the real server and the
 * mock LLM: turn 1 writes story.txt, turn 2 edits it and creates extra.txt; a phone
 * (an Android browser) rewinds turn 2. The dialog says "Restored 1 file, removed 1 new
 * file."; both the phone and the desktop (live, and after a reload) show a band
 * "Rewound 2 files to before this turn" with who and when, which opens to the files;
 * turn 2's files-changed card and its edit card say "Rewound", turn 1's do not; a
 * preview of extra.txt says the rewind removed it instead of "does not exist".
 * Screenshots: desktop-rewind-band.png, desktop-rewind-removed-file.png,
 * phone-rewind-band.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import {
  noHorizontalScroll,
  openApp,
  screenshot,
  watchErrors,
  withBrowserServer,
} from "./browser.ts";
import { bigTargets, DESKTOP, newPage, PHONE } from "./approval_helpers.ts";
import { openRewind, startTask } from "./interact_helpers.ts";
import { lastTurn, send, strip } from "./run_helpers.ts";

const ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";

const turns = (page: Page) => page.locator("[data-testid=turn]");
const band = (page: Page) => page.locator("[data-testid=rewind-band]");

Deno.test(
  "rewind: a band every client sees (who, when, what), rewound cards marked, removed file explained",
  async () => {
    const mock = startMockLlm({ quiet: true });
    mock.register("bander", {
      turns: [
        {
          text: "Writing story.txt.",
          toolCalls: [{ name: "write_file", args: { path: "story.txt", content: "one\n" } }],
        },
        { text: "Turn one done." },
        { toolCalls: [{ name: "read_file", args: { path: "story.txt" } }] },
        {
          toolCalls: [
            {
              name: "edit_file",
              args: { path: "story.txt", old_string: "one", new_string: "two" },
            },
            { name: "write_file", args: { path: "extra.txt", content: "new\n" } },
          ],
        },
        { text: "Turn two done." },
      ],
    });
    const home = await homeWithProvider(mock.base, ["bander"]);
    const ws = `${home}/DefaultProject`;
    await withBrowserServer(
      { home },
      async (browser, server) => {
        const desk = await newPage(browser, DESKTOP);
        const d = desk.page;
        await openApp(d, server.url);
        await startTask(d, "bander", "full", "Full access", "Turn one: write story.txt");
        const done = () =>
          strip(lastTurn(d)).and(d.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
        await done();
        await send(d, "Turn two: edit it and add extra.txt");
        await done();
        await turns(d).nth(1).locator("[data-testid=file-changes]").waitFor();

        // The phone (an Android browser) rewinds turn 2 from its ⋯ menu.
        const ctx = await browser.newContext({
          viewport: PHONE,
          locale: "en-US",
          userAgent: ANDROID,
        });
        const p = await ctx.newPage();
        const phoneErrors = watchErrors(p);
        await openApp(p, d.url().replace(/^.*#/, `${server.url}#`));
        await turns(p).nth(1).locator("[data-testid=file-changes]").waitFor();
        const dialog = await openRewind(p, 1, true);
        await dialog.locator("[data-testid=rewind-confirm]").click();
        assertEquals(
          await dialog.locator("[data-testid=rewind-done]").innerText(),
          "Restored 1 file, removed 1 new file.",
        );
        await dialog.locator("[data-testid=rewind-close]").click();
        await dialog.waitFor({ state: "detached" });
        assertEquals(await Deno.readTextFile(`${ws}/story.txt`), "one\n");

        // Both clients show the band at the end of turn 2, with who and when.
        for (const page of [p, d]) {
          await turns(page).nth(1).locator("[data-testid=rewind-band]").waitFor();
          assertEquals(
            await band(page).locator("[data-testid=rewind-band-title]").innerText(),
            "Rewound 2 files to before this turn",
          );
          assertMatch(
            await band(page).locator("[data-testid=rewind-band-when]").innerText(),
            /^Phone \(Chrome, Android\) · \d{1,2}:\d{2}( [AP]M)?$/,
          );
        }
        // Turn 2's cards are marked as rewound (live on the desktop); turn 1's are not.
        const card = (page: Page, n: number) =>
          turns(page).nth(n).locator("[data-testid=file-changes]");
        await card(d, 1).and(d.locator("[data-rewound=true]")).waitFor();
        assertEquals(await card(d, 1).locator("[data-testid=fc-rewound]").innerText(), "Rewound");
        assertEquals(await card(d, 0).getAttribute("data-rewound"), "false");
        await turns(d).nth(1).locator("[data-testid=turn-status] button").click();
        await turns(d).nth(1).locator("[data-testid=change-rewound]").first().waitFor();
        assertEquals(await turns(d).nth(0).locator("[data-testid=change-rewound]").count(), 0);

        // The band opens to the result and the files.
        await band(d).locator("summary").click();
        assertEquals(
          await band(d).locator("[data-testid=rewind-band-result]").innerText(),
          "Restored 1 file, removed 1 new file.",
        );
        assertEquals(
          await band(d).locator("[data-testid=rewind-band-restored] .rwb-path").allInnerTexts(),
          ["story.txt"],
        );
        assertEquals(
          await band(d).locator("[data-testid=rewind-band-removed] .rwb-path").allInnerTexts(),
          ["extra.txt"],
        );
        await band(d).scrollIntoViewIfNeeded();
        await screenshot(d, "desktop-rewind-band");

        // Opening the file the rewind removed says so instead of "does not exist".
        await card(d, 1).locator("[data-testid=file-change][data-path='extra.txt']").click();
        await d.locator("[data-testid=right-panel] [data-testid=diff]").waitFor();
        await d.locator("[data-testid=panel-open-file]").click();
        const removed = d.locator("[data-testid=panel-removed]");
        await removed.waitFor();
        assertMatch(
          await removed.innerText(),
          /This file was removed by a rewind: the code was rewound to before “Turn two: edit it and add extra\.txt”\.\n+Phone \(Chrome, Android\) · /,
        );
        await screenshot(d, "desktop-rewind-removed-file");
        await removed.locator("[data-testid=panel-show-rewind]").click();
        await d.locator("[data-testid=right-panel]").waitFor({ state: "detached" });

        // A reload keeps it (it is in the timeline).
        await d.reload();
        await turns(d).nth(1).locator("[data-testid=rewind-band]").waitFor();
        assertEquals(await card(d, 1).getAttribute("data-rewound"), "true");

        // The phone: the band opens too; its header is a big enough target.
        await band(p).locator("summary").click();
        await band(p).locator("[data-testid=rewind-band-removed]").waitFor();
        await bigTargets(band(p).locator("summary"));
        await band(p).scrollIntoViewIfNeeded();
        await noHorizontalScroll(p, PHONE.width);
        await screenshot(p, "phone-rewind-band");
        assert(
          (await turns(p).nth(1).locator("[data-testid=file-changes]").getAttribute(
            "data-rewound",
          )) ===
            "true",
          "phone card marked",
        );
        assertEquals(desk.errors, [], "desktop page errors");
        assertEquals(phoneErrors, [], "phone page errors");
      },
      async () => {
        await mock.close();
        await Deno.remove(home, { recursive: true });
      },
    );
  },
);
