import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RENDERER_CSP, rendererHeaders, resolveRendererFile } from "./renderer-files.js";

const root = resolve("/opt/app/dist/renderer");
const origin = "app://inspector";

describe("resolveRendererFile", () => {
  it("serves index.html for the root and files below the renderer folder", () => {
    expect(resolveRendererFile(root, "app://inspector/", origin)).toBe(join(root, "index.html"));
    expect(resolveRendererFile(root, "app://inspector/assets/a.js?x=1", origin)).toBe(
      join(root, "assets/a.js"),
    );
  });

  it("refuses traversal, encoded traversal, NUL bytes and other origins", () => {
    expect(resolveRendererFile(root, "app://inspector/../../etc/passwd", origin)).toBe(
      join(root, "etc/passwd"),
    );
    // The URL parser folds `..` and `%2e%2e` segments first, so these stay inside the root.
    expect(resolveRendererFile(root, "app://inspector/%2e%2e/%2e%2e/etc/passwd", origin)).toBe(
      join(root, "etc/passwd"),
    );
    expect(resolveRendererFile(root, "app://inspector/..%2f..%2fetc%2fpasswd", origin)).toBeUndefined();
    expect(resolveRendererFile(root, "app://inspector/a%00.js", origin)).toBeUndefined();
    expect(resolveRendererFile(root, "app://other/index.html", origin)).toBeUndefined();
    expect(resolveRendererFile(root, "file:///etc/passwd", origin)).toBeUndefined();
    expect(resolveRendererFile(root, "app://inspector/%E0%A4%A", origin)).toBeUndefined();
  });
});

describe("rendererHeaders", () => {
  it("sends the strict CSP and a content type", () => {
    const h = rendererHeaders("/x/index.html");
    expect(h["Content-Security-Policy"]).toBe(RENDERER_CSP);
    expect(h["Content-Type"]).toMatch(/^text\/html/);
    expect(RENDERER_CSP).toMatch(/default-src 'none'/);
    expect(RENDERER_CSP).not.toMatch(/unsafe/);
  });

  it("lets the window connect to its own origin only (it reaches the hub through IPC)", () => {
    const connect = RENDERER_CSP.split("; ").find((d) => d.startsWith("connect-src "));
    expect(connect).toBe("connect-src 'self'");
    expect(RENDERER_CSP).not.toMatch(/127\.0\.0\.1|localhost|\*/);
  });
});
