import { CLIENT_CASE_NAMES } from "../../../shared/conformance/client/client-case-catalogue.js";

/** The `--client` part of `conformance --help` (docs/conformance.md#the-client-suite---client). */
export const CLIENT_HELP = `Client suite (--client): checks an ACP v2 client's idempotency keys. The client command is run
once per fault schedule (5 runs; the options above apply, --case-timeout-ms per run); an argument
that is exactly {agent} becomes the words of the agent command the suite controls (the reference
agent behind the tap, with the run's faults), an argument that contains {agent} (--agent={agent})
gets that command as one shell-quoted string, {dir} becomes the run's private folder and
{timeoutMs} the attempt timeout asked of the client (--client-timeout). The client is spawned from
argv, without a shell, in its own fresh HOME, XDG folders and working directory (<run>/home,
<run>/work) in every run: nothing it keeps per user leaks from one run into the next. Its command
must submit a prompt; give it the same prompt twice for new-key-same-text, e.g.
  acp-retry-inspector conformance --client -- acp-retry-inspector demo-client --prompt 'deploy it' -- {agent}
  acp-retry-inspector conformance --client --client-timeout 4000 -- acp-retry-inspector demo-client \\
    --timeout {timeoutMs} --one-at-a-time --prompt hello --prompt hello -- {agent}
  acp-retry-inspector conformance --client -- acpx --agent={agent} exec hello
A case the client's command cannot exercise is "not applicable" (skipped), not failed. Cases:
${CLIENT_CASE_NAMES.map((n) => `  ${n}`).join("\n")}
Client exit status: as below, where 1 also means the client never reached the suite's agent and
3 means it asked for protocol version 1 (no keys).`;
