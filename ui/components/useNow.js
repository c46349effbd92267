/** A hook that re-renders its component every `ms` while `active` (live timers). */
import { useEffect, useState } from "preact/hooks";

/**
 * @param {number} ms
 * @param {boolean} active
 * @returns {number} Date.now() of the last tick
 */
export function useNow(ms, active) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms, active]);
  return now;
}
