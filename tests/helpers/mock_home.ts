/** Browser tests' name for {@link homeWithProvider} with workspace files. */
import { homeWithProvider } from "./seed.ts";

export function homeWithMockProvider(
  mockBase: string,
  modelIds: string[],
  workspaceFiles: Record<string, string> = {},
): Promise<string> {
  return homeWithProvider(mockBase, modelIds, { workspaceFiles });
}
