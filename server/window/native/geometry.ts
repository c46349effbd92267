/**
 * The native window's remembered size and position: `<data dir>/window.json`, written
 * when the window moves or resizes and read when it opens. A file that is not valid is
 * reported and left as it is (never overwritten): the window then opens at the default
 * size and its geometry is not saved until the file is fixed or removed.
 */
import { join } from "../../../lib/path.ts";

export interface WindowGeometry {
  width: number;
  height: number;
  /** Top-left corner on the screen; absent = let the window manager place it. */
  x?: number;
  y?: number;
  maximized?: boolean;
}

export const DEFAULT_GEOMETRY: WindowGeometry = { width: 1280, height: 800 };

const LIMITS = { minW: 320, minH: 240, maxSide: 16_384, maxPos: 32_000 } as const;
/** Far more than the JSON above needs: a larger file is not ours. */
const MAX_FILE_BYTES = 4096;

export const geometryPath = (home: string) => join(home, "window.json");

export type GeometryLoad =
  | { kind: "saved"; geometry: WindowGeometry }
  | { kind: "none"; geometry: WindowGeometry }
  | { kind: "invalid"; geometry: WindowGeometry; problem: string };

const isInt = (v: unknown, lo: number, hi: number): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= lo && v <= hi;

/** The geometry in `value`, or why it is not one. */
export function parseGeometry(value: unknown): WindowGeometry | { problem: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { problem: "not a JSON object" };
  }
  const v = value as Record<string, unknown>;
  const known = new Set(["width", "height", "x", "y", "maximized"]);
  const extra = Object.keys(v).find((k) => !known.has(k));
  if (extra) return { problem: `unknown field "${extra}"` };
  if (!isInt(v.width, LIMITS.minW, LIMITS.maxSide)) {
    return { problem: `width must be a whole number ${LIMITS.minW}–${LIMITS.maxSide}` };
  }
  if (!isInt(v.height, LIMITS.minH, LIMITS.maxSide)) {
    return { problem: `height must be a whole number ${LIMITS.minH}–${LIMITS.maxSide}` };
  }
  if ((v.x === undefined) !== (v.y === undefined)) return { problem: "x and y go together" };
  for (const k of ["x", "y"] as const) {
    if (v[k] !== undefined && !isInt(v[k], -LIMITS.maxPos, LIMITS.maxPos)) {
      return { problem: `${k} must be a whole number within ±${LIMITS.maxPos}` };
    }
  }
  if (v.maximized !== undefined && typeof v.maximized !== "boolean") {
    return { problem: "maximized must be true or false" };
  }
  const g: WindowGeometry = { width: v.width, height: v.height };
  if (v.x !== undefined) Object.assign(g, { x: v.x, y: v.y });
  if (v.maximized) g.maximized = true;
  return g;
}

export async function loadGeometry(home: string): Promise<GeometryLoad> {
  const path = geometryPath(home);
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) {
      return { kind: "invalid", geometry: DEFAULT_GEOMETRY, problem: `${path} is not a file` };
    }
    if (info.size > MAX_FILE_BYTES) {
      return {
        kind: "invalid",
        geometry: DEFAULT_GEOMETRY,
        problem: `${path} is larger than ${MAX_FILE_BYTES} bytes`,
      };
    }
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { kind: "none", geometry: DEFAULT_GEOMETRY };
    return { kind: "invalid", geometry: DEFAULT_GEOMETRY, problem: (e as Error).message };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: "invalid", geometry: DEFAULT_GEOMETRY, problem: `${path} is not valid JSON` };
  }
  const g = parseGeometry(json);
  if ("problem" in g) {
    return { kind: "invalid", geometry: DEFAULT_GEOMETRY, problem: `${path}: ${g.problem}` };
  }
  return { kind: "saved", geometry: g };
}

/** Writes through a temporary file and a rename, so a crash never leaves half a file. */
export async function saveGeometry(home: string, g: WindowGeometry): Promise<void> {
  const checked = parseGeometry(g);
  if ("problem" in checked) throw new Error(`not saving window geometry: ${checked.problem}`);
  const path = geometryPath(home);
  const tmp = `${path}.${Deno.pid}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(checked) + "\n", { mode: 0o600 });
  await Deno.rename(tmp, path);
}

/** Brings a window's measured geometry within what `parseGeometry` accepts. */
export function clampGeometry(g: WindowGeometry): WindowGeometry {
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(v)));
  const out: WindowGeometry = {
    width: clamp(g.width, LIMITS.minW, LIMITS.maxSide),
    height: clamp(g.height, LIMITS.minH, LIMITS.maxSide),
  };
  if (g.x !== undefined && g.y !== undefined) {
    out.x = clamp(g.x, -LIMITS.maxPos, LIMITS.maxPos);
    out.y = clamp(g.y, -LIMITS.maxPos, LIMITS.maxPos);
  }
  if (g.maximized) out.maximized = true;
  return out;
}

/**
 * Whether enough of the window's title bar would be on the screen to grab it. (Screen
 * size 0, as Wayland may say: assume it is.)
 */
export function onScreen(g: WindowGeometry, screen: { width: number; height: number }): boolean {
  if (g.x === undefined || g.y === undefined) return true;
  if (screen.width <= 0 || screen.height <= 0) return true;
  const grab = 100;
  return g.x + g.width >= grab && g.x <= screen.width - grab && g.y >= -10 &&
    g.y <= screen.height - 40;
}

/** Same geometry (what is saved): saves only when something changed. */
export const sameGeometry = (a: WindowGeometry, b: WindowGeometry) =>
  JSON.stringify(parseGeometry(a)) === JSON.stringify(parseGeometry(b));
