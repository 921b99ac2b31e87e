/**
 * The `{agent}` placeholder of `conformance --client -- <client command>`: where the client under
 * test takes its agent command. An argument that is exactly `{agent}` becomes the agent command's
 * words (separate argv entries, for `demo-client -- {agent}`); an argument that only contains it
 * (`--agent={agent}`, `run "{agent}" now`) gets the whole command as one POSIX-shell-quoted string,
 * for clients that split an agent command string themselves (`acpx --agent={agent}`). `{dir}`,
 * anywhere in an argument, becomes the run's private folder, for a client that keeps state between
 * runs (`demo-client --pending {dir}/pending.json`), so runs never share it. Pure.
 */

/** The placeholder, exactly as the user writes it. */
export const AGENT_PLACEHOLDER = "{agent}";

/** The run-folder placeholder. */
export const DIR_PLACEHOLDER = "{dir}";

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

/** `argv` with every `{agent}` filled in from `agentWords`, and every `{dir}` with `dir` (see the file comment). */
export function substituteAgent(
  argv: readonly string[],
  agentWords: readonly string[],
  dir?: string,
): string[] {
  const joined = shellJoin(agentWords);
  return argv
    .map((a) => (dir === undefined ? a : a.split(DIR_PLACEHOLDER).join(dir)))
    .flatMap((a) =>
      a === AGENT_PLACEHOLDER
        ? [...agentWords]
        : a.includes(AGENT_PLACEHOLDER)
          ? [a.split(AGENT_PLACEHOLDER).join(joined)]
          : [a],
    );
}
