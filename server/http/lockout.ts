/**
 * Per-IP lockout: `maxFailures` bad credentials from one address block it for
 * `blockMs`. Loopback addresses are never blocked (the local user can always get in).
 */

export function isLoopback(ip: string): boolean {
  const v4 = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  return v4.startsWith("127.") || ip === "::1" || ip === "localhost";
}

export class Lockout {
  private failures = new Map<string, { count: number; blockedUntil: number }>();

  constructor(
    private now: () => number = Date.now,
    private maxFailures = 5,
    private blockMs = 5 * 60_000,
  ) {}

  isBlocked(ip: string): boolean {
    const f = this.failures.get(ip);
    if (!f || f.blockedUntil === 0) return false;
    if (this.now() < f.blockedUntil) return true;
    this.failures.delete(ip); // block expired: start counting afresh
    return false;
  }

  /** Records a failure; returns true when this failure blocks the address. */
  fail(ip: string): boolean {
    if (isLoopback(ip)) return false;
    const f = this.failures.get(ip) ?? { count: 0, blockedUntil: 0 };
    f.count++;
    if (f.count >= this.maxFailures) f.blockedUntil = this.now() + this.blockMs;
    this.failures.set(ip, f);
    // Bound memory under a spray of addresses: drop the oldest entries.
    if (this.failures.size > 10_000) {
      this.failures.delete(this.failures.keys().next().value!);
    }
    return f.blockedUntil > 0;
  }

  succeed(ip: string): void {
    const f = this.failures.get(ip);
    if (f && f.blockedUntil === 0) this.failures.delete(ip);
  }
}
