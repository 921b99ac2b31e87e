/**
 * A tap's name: what `proxy --name` sets, or what it derives from the agent command and the working
 * folder (`claude-code-acp @ myrepo`), so several traces of one editor and agent can be told apart.
 * Pure: it only looks at strings, never at the file system.
 */
import type { TraceHeader } from "./record.js";

/** The longest name a tap carries (`--name` is refused above it, a derived name is cut to it). */
export const MAX_TAP_NAME_CHARS = 120;

/** Interpreters whose first non-option argument is the program (a script, or `-m module` for Python). */
const INTERPRETERS = new Set(["node", "nodejs", "bun", "deno", "tsx", "ts-node", "ruby", "perl", "php"]);
/** Package runners whose first non-option argument is a package name. */
const PACKAGE_RUNNERS = new Set(["npx", "pnpx", "bunx", "uvx"]);
/** Package managers whose subcommand runs a package: `npm exec pkg`, `pnpm dlx pkg`, `pipx run pkg`. */
const RUNNER_VERBS: Readonly<Record<string, readonly string[]>> = {
  npm: ["exec", "x"],
  pnpm: ["dlx", "exec"],
  yarn: ["dlx", "exec"],
  pipx: ["run"],
  bun: ["x"],
};
/** Programs whose first plain argument names what runs: `acp-retry-inspector demo-agent`. */
const MULTI_COMMAND = new Set(["acp-retry-inspector"]);
/** Script names that say nothing about the program (`dist/cli.js`, `index.mjs`). */
const GENERIC_SCRIPTS = new Set(["cli", "index", "main", "bin", "run", "start", "server", "app"]);
/** Folders that say nothing about the program a script belongs to. */
const GENERIC_DIRS = new Set([
  "dist",
  "build",
  "lib",
  "bin",
  "src",
  "out",
  "esm",
  "cjs",
  "node_modules",
  ".bin",
]);
/** Options of `node` (and of the other interpreters) that take a value as the next argument. */
const VALUE_OPTIONS = new Set([
  "-r",
  "--require",
  "--import",
  "--loader",
  "--experimental-loader",
  "--env-file",
]);

function lastSegment(path: string): string {
  const parts = path.split(/[\\/]+/).filter((p) => p !== "");
  return parts.at(-1) ?? "";
}

/** The executable's base name without a Windows extension, lower-cased for matching. */
function programOf(arg: string): string {
  return lastSegment(arg)
    .replace(/\.(exe|cmd|bat|ps1)$/i, "")
    .toLowerCase();
}

function withoutExtension(name: string): string {
  return name.replace(/\.(m?[jt]s|c[jt]s|jsx|tsx|py|rb|pl|php|sh)$/i, "");
}

/** `@scope/name@1.2.3` -> `name`; `npm:name` -> `name`; a path or URL -> its last segment. */
function packageName(spec: string): string {
  let s = spec.replace(/^npm:/, "");
  if (s.includes("://") || s.startsWith(".") || s.startsWith("/")) return withoutExtension(lastSegment(s));
  if (s.startsWith("@")) s = s.slice(s.indexOf("/") + 1);
  const at = s.indexOf("@");
  if (at > 0) s = s.slice(0, at);
  return s.replace(/[=<>~^].*$/, "");
}

const isWord = (a: string | undefined): a is string => a !== undefined && /^[A-Za-z0-9][\w.:-]*$/.test(a);
const isPython = (p: string) => /^(python[0-9.]*|py|pypy[0-9.]*)$/.test(p);

/** The program a script belongs to: the script's name, or its folder's for `dist/index.js`. */
function scriptProgram(script: string, next: string | undefined): string {
  const name = withoutExtension(lastSegment(script));
  if (!GENERIC_SCRIPTS.has(name.toLowerCase())) return name;
  if (isWord(next)) return next;
  const dirs = script
    .split(/[\\/]+/)
    .slice(0, -1)
    .reverse();
  return dirs.find((d) => d !== "" && d !== "." && d !== ".." && !GENERIC_DIRS.has(d.toLowerCase())) ?? name;
}

/**
 * The agent program's name from its argv, without interpreter and runner noise:
 * `node …/cli.js demo-agent` -> `demo-agent`, `npx -y @zed-industries/claude-code-acp` ->
 * `claude-code-acp`, `python3 -m my_agent` -> `my_agent`. Empty for an empty argv.
 */
export function agentProgramName(argv: readonly string[], depth = 0): string {
  let i = 0;
  const at = () => argv[i];
  const skipOptions = (valueOptions: ReadonlySet<string> = VALUE_OPTIONS) => {
    while (at()?.startsWith("-")) {
      const a = at() as string;
      i += a === "--" ? 1 : valueOptions.has(a) ? 2 : 1;
      if (a === "--") break;
    }
  };
  for (;;) {
    const first = at();
    if (first === undefined) return "";
    const prog = programOf(first);
    if (prog === "env") {
      i++;
      while (at() !== undefined && (at()?.startsWith("-") || at()?.includes("="))) i++;
      continue;
    }
    if (/^(sh|bash|zsh|dash)$/.test(prog) && argv[i + 1] === "-c" && argv[i + 2] !== undefined && depth < 3) {
      return agentProgramName((argv[i + 2] as string).trim().split(/\s+/), depth + 1) || prog;
    }
    if (prog === "uv" && argv[i + 1] === "run") {
      i += 2;
      skipOptions(new Set(["--with", "--python", "-p", "--directory", "--project"]));
      continue;
    }
    const verbs = RUNNER_VERBS[prog];
    if (PACKAGE_RUNNERS.has(prog) || verbs?.includes(argv[i + 1] ?? "")) {
      i += PACKAGE_RUNNERS.has(prog) ? 1 : 2;
      let pkg: string | undefined;
      while (at()?.startsWith("-")) {
        const a = at() as string;
        if (a === "--") {
          i++;
          break;
        }
        if (a === "-p" || a === "--package") {
          pkg = argv[i + 1];
          i += 2;
        } else i++;
      }
      const spec = at() ?? pkg;
      if (spec === undefined) return prog;
      const name = packageName(spec);
      if (MULTI_COMMAND.has(name.toLowerCase()) && isWord(argv[i + 1])) return argv[i + 1] as string;
      return name || prog;
    }
    if (INTERPRETERS.has(prog) || isPython(prog)) {
      i++;
      if ((prog === "deno" || prog === "bun") && at() === "run") i++;
      while (at()?.startsWith("-")) {
        const a = at() as string;
        if (isPython(prog) && a === "-m" && argv[i + 1] !== undefined) return argv[i + 1] as string;
        i += VALUE_OPTIONS.has(a) ? 2 : 1;
      }
      const script = at();
      return script === undefined ? prog : scriptProgram(script, argv[i + 1]);
    }
    if (MULTI_COMMAND.has(prog) && isWord(argv[i + 1])) return argv[i + 1] as string;
    return withoutExtension(lastSegment(first)) || first;
  }
}

function clip(name: string): string {
  return name.length > MAX_TAP_NAME_CHARS ? `${name.slice(0, MAX_TAP_NAME_CHARS - 1)}…` : name;
}

/**
 * The name a tap gets without `--name`: the agent program and the working folder's base name,
 * `claude-code-acp @ myrepo`; for a front forwarding to a remote agent, that agent's address.
 */
export function deriveTapName(agent: {
  readonly command?: readonly string[];
  readonly cwd?: string;
  readonly url?: string;
}): string {
  let program = agent.command && agent.command.length > 0 ? agentProgramName(agent.command) : "";
  if (program === "" && agent.url !== undefined) {
    const host = /^[A-Za-z][\w+.-]*:\/\/([^/?#]+)/.exec(agent.url)?.[1];
    program = `agent at ${host ?? agent.url}`;
  }
  const folder = agent.cwd === undefined ? "" : lastSegment(agent.cwd);
  if (program === "") return clip(folder === "" ? "unnamed tap" : `tap @ ${folder}`);
  return clip(folder === "" ? program : `${program} @ ${folder}`);
}

/** Why a `--name` value cannot be used, or undefined when it can. */
export function checkTapName(name: string): string | undefined {
  if (name.trim() === "") return "--name needs a non-empty name";
  if (name.length > MAX_TAP_NAME_CHARS) return `--name is at most ${MAX_TAP_NAME_CHARS} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(name)) return "--name cannot contain control characters";
  return undefined;
}

/**
 * What to call a trace: its header's `name`, else a name derived from the header's agent command
 * and folder (traces written before taps had names), else `fallback` (the trace id or file name).
 */
export function traceName(header: TraceHeader | null | undefined, fallback: string): string {
  if (typeof header?.name === "string" && header.name.trim() !== "") return clip(header.name);
  const command = header?.agent?.command;
  if (Array.isArray(command) && command.length > 0 && command.every((a) => typeof a === "string"))
    return deriveTapName({
      command,
      ...(typeof header?.agent?.cwd === "string" && { cwd: header.agent.cwd }),
    });
  return fallback;
}
