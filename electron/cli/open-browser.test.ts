import { type ChildProcess, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { takeFragmentToken } from "../../shared/hub/hub-auth.js";
import { cliPath } from "../tools/testing/cli.js";
import { openUiLink, redirectPage, writeRedirectFile } from "./open-browser.js";

let dir: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-open-"));
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const LINK = "http://127.0.0.1:4567/#token=abc_DEF-123";

describe("the redirect page", () => {
  it("sends the browser to the link with a meta refresh, no script, no referrer", () => {
    const page = redirectPage(LINK);
    expect(page).toContain(`<meta http-equiv="refresh" content="0;url=${LINK}">`);
    expect(page).toContain('<meta name="referrer" content="no-referrer">');
    expect(page).not.toMatch(/<script/i);
    expect(redirectPage('http://x/#"><script>')).not.toContain('"><script>');
  });

  it("is a new file only this user can read, in a 0700 folder, never an existing file or symlink", () => {
    const folder = join(dir, "run");
    const path = writeRedirectFile(folder, LINK);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(readFileSync(path, "utf8")).toBe(redirectPage(LINK));
    expect(writeRedirectFile(folder, LINK)).not.toBe(path);
  });

  it("is opened by its path (the token is in the file, not on the opener's command line) and deleted after its lifetime", async () => {
    const opened: string[] = [];
    openUiLink(LINK, {
      dir,
      lifetimeMs: 100,
      onError: (m) => opened.push(`error: ${m}`),
      open: (p) => opened.push(p),
    });
    expect(opened).toHaveLength(1);
    const path = opened[0] as string;
    expect(path).not.toContain("abc_DEF-123");
    expect(readFileSync(path, "utf8")).toContain(LINK);
    await vi.waitFor(() => expect(existsSync(path)).toBe(false), { timeout: 5_000 });
  });

  it("is deleted at once by remove()", () => {
    const opened: string[] = [];
    const handle = openUiLink(LINK, { dir, onError: () => {}, open: (p) => opened.push(p) });
    expect(existsSync(opened[0] as string)).toBe(true);
    handle.remove();
    expect(existsSync(opened[0] as string)).toBe(false);
  });

  it("reports a folder it cannot write in and opens nothing", () => {
    writeFileSync(join(dir, "file"), "");
    const errors: string[] = [];
    const opened: string[] = [];
    openUiLink(LINK, {
      dir: join(dir, "file", "sub"),
      onError: (m) => errors.push(m),
      open: (p) => opened.push(p),
    });
    expect(errors).toHaveLength(1);
    expect(opened).toEqual([]);
  });
});

/** Every process's command line on this machine that contains `secret` (what `ps` would show). */
function commandLinesWith(secret: string): string[] {
  const hits: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (cmdline.includes(secret)) hits.push(`${pid}: ${cmdline}`);
    } catch {
      // gone already, or not ours to read
    }
  }
  return hits;
}

describe.skipIf(process.platform !== "linux")("serve --open (real processes, a fake xdg-open)", () => {
  it("never puts the token on a command line; the opener gets a 0600 page that redirects to the link, removed at exit", async () => {
    const bin = join(dir, "bin");
    mkdirSync(bin);
    const log = join(dir, "opener.log");
    // Records its argv, the mode of the file it was given and that file's content, like a browser
    // reading it; then lingers a moment, as a real opener does, so it is in the process table.
    writeFileSync(
      join(bin, "xdg-open"),
      `#!/bin/sh
{ for a in "$@"; do printf 'arg:%s\\n' "$a"; done; printf 'mode:%s\\n' "$(stat -c %a "$1")"; } > "$FAKE_OPENER_LOG.tmp"
cp "$1" "$FAKE_OPENER_LOG.html"
mv "$FAKE_OPENER_LOG.tmp" "$FAKE_OPENER_LOG"
sleep 2
`,
    );
    chmodSync(join(bin, "xdg-open"), 0o755);
    const runDir = join(dir, "run");
    const serve = spawn(
      process.execPath,
      [cliPath(), "serve", "--open", "--traces-dir", join(dir, "traces")],
      {
        env: {
          ...process.env,
          PATH: `${bin}:${process.env.PATH}`,
          FAKE_OPENER_LOG: log,
          ACP_RETRY_INSPECTOR_RUNTIME_DIR: runDir,
          XDG_STATE_HOME: join(dir, "state"),
          XDG_CONFIG_HOME: join(dir, "config"),
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    children.push(serve);
    let stderr = "";
    serve.stderr.on("data", (d) => {
      stderr += d;
    });
    const link = await new Promise<string>((resolve, reject) => {
      let out = "";
      serve.stdout.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
      });
      serve.once("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    const token = takeFragmentToken(new URL(link).hash).token as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    await vi.waitFor(() => expect(existsSync(log)).toBe(true), { timeout: 15_000, interval: 50 });
    // While serve runs and its opener is still alive: no command line holds the token.
    expect(commandLinesWith(token)).toEqual([]);
    const lines = readFileSync(log, "utf8").trim().split("\n");
    const args = lines.filter((l) => l.startsWith("arg:")).map((l) => l.slice(4));
    expect(args).toHaveLength(1);
    const page = args[0] as string;
    expect(page).not.toContain(token);
    expect(page.startsWith(`${runDir}/open-`)).toBe(true);
    expect(lines).toContain("mode:600");
    expect(readFileSync(`${log}.html`, "utf8")).toContain(
      `<meta http-equiv="refresh" content="0;url=${link}">`,
    );
    expect(existsSync(page)).toBe(true);

    const exited = new Promise<number | null>((resolve) => serve.once("exit", resolve));
    serve.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(existsSync(page)).toBe(false);
    expect(stderr).not.toContain(token);
  });
});
