import { randomBytes } from 'node:crypto';

/** How long a one-time sign-in link lives: long enough for a browser to start, short enough to be useless later. */
export const OPEN_LINK_TTL_MS = 60_000;

/**
 * One-time sign-in codes for `serve --open`. The browser is started with `/open/<code>` on its
 * command line (which any local user can read with `ps`), never with the token: the code is
 * good for one request within the TTL, and the server then hands the token to that tab only.
 * Hazard: a local user who redeems the code first wins; the real tab then shows "already used",
 * so the theft is visible, and the printed URL still works for the user.
 */
export class OpenLinks {
  private readonly codes = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = OPEN_LINK_TTL_MS,
  ) {}

  mint(): string {
    this.purge();
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, this.now() + this.ttlMs);
    return code;
  }

  /** True once per minted code, before it expires; the code is spent either way. */
  redeem(code: string): boolean {
    const expires = this.codes.get(code);
    this.codes.delete(code);
    this.purge();
    return expires !== undefined && this.now() <= expires;
  }

  private purge(): void {
    const t = this.now();
    for (const [code, expires] of this.codes) if (expires < t) this.codes.delete(code);
  }
}
