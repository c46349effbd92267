/**
 * Images a tool returned (an MCP server's `image` content, kept in the result's
 * `meta.mcp.images`, already bounded; an image file read_file read) for models with
 * vision. Tool messages carry text only in every wire format we speak, so the images
 * follow the step's tool results as one user message that says where they came from.
 */
import type { ImageBlock, LlmMessage, TextBlock } from "./providers/types.ts";

/**
 * The images in a result's meta (empty when none or malformed): an MCP tool's, or an
 * image file read_file read (`meta.images`).
 */
export function imagesOf(meta: unknown): ImageBlock[] {
  const m = meta as { mcp?: { images?: unknown }; images?: unknown } | undefined;
  const images = Array.isArray(m?.images) ? m.images : m?.mcp?.images;
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

/**
 * A tool result's text for the model: for a model without image input, an image the
 * tool returned is named as not shown, so it does not answer as if it had seen it.
 */
export function resultTextFor(content: string, meta: unknown, vision: boolean): string {
  if (vision || !imagesOf(meta).length) return content;
  return `${content}\n(The image itself is not shown: this model does not take images. ` +
    "Work from the file's name and size, or ask the user what it shows.)";
}
