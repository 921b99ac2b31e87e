/**
 * The `{agent}` placeholder of `conformance --client -- <client command>`: where the client under
 * test takes its agent command. An argument that is exactly `{agent}` becomes the agent command's
 * words (separate argv entries, for `demo-client -- {agent}`); an argument that only contains it
 * (`--agent={agent}`, `run "{agent}" now`) gets the whole command as one POSIX-shell-quoted string,
 * for clients that split an agent command string themselves (`acpx --agent={agent}`). `{dir}`,
 * anywhere in an argument, becomes the run's private folder, for a client that keeps state between
 * runs (`demo-client --pending {dir}/pending.json`), so runs never share it. `{timeoutMs}` becomes
 * the attempt timeout the suite asks of the client (`--client-timeout`, in ms), for a client that
 * takes one (`demo-client --timeout {timeoutMs}`), so the suite knows how long to wait for a resend. Pure.
 */

/** The placeholder, exactly as the user writes it. */
export const AGENT_PLACEHOLDER = "{agent}";

/** The run-folder placeholder. */
export const DIR_PLACEHOLDER = "{dir}";

/** The client-timeout placeholder: the attempt timeout the suite asks the client to use, in ms. */
export const TIMEOUT_PLACEHOLDER = "{timeoutMs}";

/** Whether `argv` asks for the suite's attempt timeout (`{timeoutMs}` anywhere in it). */
export function hasTimeoutPlaceholder(argv: readonly string[]): boolean {
  return argv.some((a) => a.includes(TIMEOUT_PLACEHOLDER));
}

/** Whether `argv` names the placeholder at all (else the suite has no way to put its agent in). */
export function hasAgentPlaceholder(argv: readonly string[]): boolean {
  return argv.some((a) => a.includes(AGENT_PLACEHOLDER));
}

/** One word quoted for a POSIX shell: bare when it is only safe characters, else in single quotes. */
export function shellQuote(word: string): string {
  if (word !== "" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, "'\\''")}'`;
}

/** The command as one shell string: each word quoted, joined by spaces. */
export function shellJoin(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}

/**
 * `argv` with every `{agent}` filled in from `agentWords`, every `{dir}` with `dir` and every
 * `{timeoutMs}` with `timeoutMs` (see the file comment).
 */
export function substituteAgent(
  argv: readonly string[],
  agentWords: readonly string[],
  dir?: string,
  timeoutMs?: number,
): string[] {
  const joined = shellJoin(agentWords);
  return argv
    .map((a) => (dir === undefined ? a : a.split(DIR_PLACEHOLDER).join(dir)))
    .map((a) => (timeoutMs === undefined ? a : a.split(TIMEOUT_PLACEHOLDER).join(String(timeoutMs))))
    .flatMap((a) =>
      a === AGENT_PLACEHOLDER
        ? [...agentWords]
        : a.includes(AGENT_PLACEHOLDER)
          ? [a.split(AGENT_PLACEHOLDER).join(joined)]
          : [a],
    );
}
