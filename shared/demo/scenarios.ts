/**
 * The four stories of the built-in demo, each citing the RFD sentence it shows. Captions are
 * written to be read aloud; docs/demo.md prints them.
 */
import type { Scenario, Step } from "./scenario.js";

const LOSE_NEXT_ANSWER: Step = {
  caption:
    "A keyed client talks to the reference agent through the inspector's tap. We arm a fault: the tap will swallow the agent's answer to the next session/prompt.",
  rfd: "",
  action: { do: "arm", rule: { action: "drop-response", match: { method: "session/prompt" }, count: 1 } },
  expectation: "One drop-response rule is armed on the hub.",
};

const SUBMIT_DEPLOY: Step = {
  caption:
    "The user submits “Deploy the site”. The client creates an idempotency key now, at submit time, and stores it with the pending input.",
  rfd: "The Client creates the key when the user submits the input, not when it writes the request, and stores it with the pending input.",
  action: { do: "send", label: "A", text: "Deploy the site", withKey: true },
  until: { kind: "fault-applied", atLeast: 1 },
  expectation:
    "The agent inserted the message and answered, but the tap dropped the answer: the client saw nothing.",
};

const RETRY_AFTER_TIMEOUT: Step = {
  caption:
    "No answer arrives. The client cannot tell whether the prompt was inserted, so after its timeout it sends the same prompt again, with the same key, as a new JSON-RPC request.",
  rfd: "It sends the same key on every attempt, including after reconnecting or restarting.",
  action: { do: "observe" },
  until: { kind: "answered", label: "A" },
  expectation: "The retry is answered with a messageId.",
};

/** The stories, in the order the player lists them. */
export const SCENARIOS: readonly Scenario[] = [
  {
    id: "lost-response",
    title: "Lost response, then a keyed retry",
    short: "Lost response",
    summary:
      "The agent's answer is lost; the client resends with the same key and gets the original messageId.",
    agentMode: "correct",
    turn: "normal",
    steps: [
      LOSE_NEXT_ANSWER,
      SUBMIT_DEPLOY,
      {
        ...RETRY_AFTER_TIMEOUT,
        rfd: "A retry gets the original messageId and nothing else.",
        expectation:
          "The agent recognised the key: the retry got the original messageId and no second round of work started.",
      },
      {
        caption: "The inspector groups both attempts by their key and judges them against the RFD.",
        rfd: "The Agent inserts the user message at most once for that key and answers retries with the messageId of the original.",
        action: { do: "observe" },
        until: { kind: "verdict", label: "A", verdict: "deduplicated" },
        expectation: "Verdict deduplicated: two attempts, one user message, one messageId, one deploy.",
      },
    ],
  },
  {
    id: "crash-restart",
    title: "Agent crash, restart, resume, retry",
    short: "Crash and restart",
    summary:
      "The agent dies after inserting the prompt; a new agent process resumes the stored session and answers the retry.",
    agentMode: "correct",
    turn: "normal",
    steps: [
      {
        caption:
          "We arm a fault: when the agent answers the next session/prompt, the tap kills the agent process instead of forwarding the answer.",
        rfd: "",
        action: {
          do: "arm",
          rule: { action: "kill-agent", match: { method: "session/prompt", on: "response" }, count: 1 },
        },
        expectation: "One kill-agent rule is armed on the hub.",
      },
      {
        caption:
          "The user submits “Deploy the site”. The agent writes the message to its stored session, then dies before its answer leaves.",
        rfd: "The cases that need the key are a crashed or restarted Agent process and a restarted Client, so the record only helps if it is in the stored session.",
        action: { do: "send", label: "A", text: "Deploy the site", withKey: true },
        until: { kind: "connections", atLeast: 2 },
        expectation: "The agent process is gone and the connection dropped. The client reconnects.",
      },
      {
        caption:
          "On the new connection a fresh agent process starts from the same store. The client sends initialize and session/resume, then resends its pending prompt with the same key.",
        rfd: "Clients SHOULD resend a pending prompt as soon as they have resumed the session.",
        action: { do: "observe" },
        until: { kind: "answered", label: "A" },
        expectation:
          "The restarted agent found the key in the stored session and answered with the original messageId.",
      },
      {
        caption: "The inspector judges the two attempts, sent on two connections to two agent processes.",
        rfd: "This holds across connections and Agent restarts.",
        action: { do: "observe" },
        until: { kind: "verdict", label: "A", verdict: "deduplicated" },
        expectation: "Verdict deduplicated: one user message across the crash, one messageId.",
      },
    ],
  },
  {
    id: "held-cancel",
    title: "Retry while held, then cancel",
    short: "Held, then cancel",
    summary:
      "A prompt held behind a long turn is retried with its key; cancelling one request withdraws it and answers both with -32800.",
    agentMode: "correct",
    turn: "long",
    steps: [
      {
        caption: "The user asks for release notes. The agent inserts the prompt and starts a long turn.",
        rfd: "",
        action: { do: "send", label: "A", text: "Write the release notes", withKey: true },
        until: { kind: "answered", label: "A" },
        expectation: "Prompt A is inserted and its turn is running.",
      },
      {
        caption:
          "While the agent is busy the user sends “Deploy to production”. The agent holds it: not inserted, its request stays pending. The client times out and retries with the same key.",
        rfd: "Answering the retry when the original is answered uses the pending request ACP already has.",
        action: { do: "send", label: "B", text: "Deploy to production", withKey: true },
        until: { kind: "attempts", label: "B", atLeast: 2 },
        expectation: "Two requests for prompt B are pending; the retry waits like the original.",
      },
      {
        caption: "The user changes their mind. The client sends $/cancel_request for B's pending requests.",
        rfd: "$/cancel_request for any pending request with the key withdraws a prompt that is not inserted yet. The Agent then answers every pending request for that key with -32800.",
        action: { do: "cancel", label: "B" },
        until: { kind: "failed", label: "B" },
        expectation: "Prompt B was withdrawn before it was inserted.",
      },
      {
        caption: "The inspector checks that every pending request of the key got the same answer.",
        rfd: "An error response to session/prompt already means the message was not inserted.",
        action: { do: "observe" },
        until: { kind: "all-cancelled", label: "B" },
        expectation:
          "Every attempt of B answered -32800 and nothing was inserted for it: withdrawn, no violation.",
      },
    ],
  },
  {
    id: "naive-duplicate",
    title: "The same story against a naive agent",
    short: "Naive agent",
    summary: "The agent ignores keys (--mode naive): the retry inserts a second message and deploys twice.",
    agentMode: "naive",
    turn: "normal",
    steps: [
      {
        ...LOSE_NEXT_ANSWER,
        caption:
          "The same lost answer, but this agent runs with --mode naive: it ignores idempotency keys, like agents that predate the RFD.",
      },
      SUBMIT_DEPLOY,
      {
        ...RETRY_AFTER_TIMEOUT,
        rfd: "For session/prompt, a second request inserts a second user message and may run the work twice.",
        until: { kind: "deploys", atLeast: 2 },
        expectation:
          "The naive agent inserted the prompt again and started a second turn: a second messageId and a second deploy.",
      },
      {
        caption: "The inspector groups the attempts by key and finds two user messages for one submission.",
        rfd: "The Agent MUST NOT insert a second message for a key it has recorded.",
        action: { do: "observe" },
        until: { kind: "verdict", label: "A", verdict: "duplicate-insert" },
        expectation: "Verdict duplicate-insert: two messageIds, two deploys, for one key.",
      },
    ],
  },
];

/** The scenario with this id, if any. */
export function findScenario(id: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.id === id);
}
