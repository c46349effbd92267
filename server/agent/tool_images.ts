/**
 * Images a tool returned (an MCP server's `image` content, kept in the result's
 * `meta.mcp.images`, already bounded) for models with vision. Tool messages carry
 * text only in every wire format we speak, so the images follow the step's tool
 * results as one user message that says where they came from.
 */
import type { ImageBlock, LlmMessage, TextBlock } from "../providers/types.ts";

/** The images in a result's meta (empty when none or malformed). */
export function imagesOf(meta: unknown): ImageBlock[] {
  const images = (meta as { mcp?: { images?: unknown } } | undefined)?.mcp?.images;
  if (!Array.isArray(images)) return [];
  return images.filter((i): i is { mimeType: string; data: string } =>
    typeof i?.mimeType === "string" && typeof i?.data === "string"
  ).map((i) => ({ type: "image", mimeType: i.mimeType, data: i.data }));
}

/** One user message with the images of a step's calls, or null when they had none. */
export function toolImagesMessage(
  calls: { name: string; images: ImageBlock[] }[],
): LlmMessage | null {
  const withImages = calls.filter((c) => c.images.length);
  if (!withImages.length) return null;
  const content: (TextBlock | ImageBlock)[] = [{
    type: "text",
    text: `[Images returned by the tool call(s) above: ${
      withImages.map((c) => c.name).join(", ")
    }. They come from the tool, not from the user.]`,
  }];
  for (const c of withImages) content.push(...c.images);
  return { role: "user", content };
}
