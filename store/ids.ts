/**
 * Time-sortable random ids: base36 milliseconds + 10 random base36 characters.
 * Injectable clock and randomness keep tests deterministic.
 */
export type IdFn = (prefix: string) => string;

export function makeIdGenerator(
  now: () => number = Date.now,
  random: () => number = Math.random,
): IdFn {
  return (prefix) => {
    let rand = "";
    for (let i = 0; i < 10; i++) rand += Math.floor(random() * 36).toString(36);
    return `${prefix}${now().toString(36).padStart(9, "0")}${rand}`;
  };
}
