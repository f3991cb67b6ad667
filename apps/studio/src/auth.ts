import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";

const COOKIE = "x_studio";

/** A fresh random token: 32 bytes, hex. */
export function newToken(): string {
  return randomBytes(32).toString("hex");
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The value every form carries, so a form posted from another origin (which cannot read the page) is refused. */
export function formKey(token: string): string {
  return createHmac("sha256", token).update("x-studio form").digest("hex");
}

/**
 * Only the person holding the token gets in: `?token=` once (it becomes an HttpOnly, SameSite=Strict cookie and
 * leaves the address bar), then the cookie or `Authorization: Bearer`. The Host header must be one this server
 * listens as (a DNS-rebinding page cannot borrow the browser), and every POST carries the form key.
 */
export function requireToken(token: string, hosts: () => readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header("host") ?? "";
    if (!hosts().includes(host)) return c.text("unknown host", 421);
    const url = new URL(c.req.url);
    const offered = url.searchParams.get("token");
    if (offered !== null && same(offered, token)) {
      setCookie(c, COOKIE, token, { httpOnly: true, sameSite: "Strict", path: "/" });
      url.searchParams.delete("token");
      return c.redirect(`${url.pathname}${url.search}`, 303);
    }
    const bearer = c.req.header("authorization")?.replace(/^Bearer /, "");
    const cookie = getCookie(c, COOKIE);
    if (!(cookie !== undefined && same(cookie, token)) && !(bearer !== undefined && same(bearer, token)))
      return c.text("This studio needs its token: open the address x-agent studio printed.", 401);
    if (c.req.method === "POST") {
      const form = await c.req.parseBody();
      const key = typeof form.formKey === "string" ? form.formKey : "";
      if (!same(key, formKey(token))) return c.text("this form was not made by this studio", 403);
    }
    await next();
  };
}
