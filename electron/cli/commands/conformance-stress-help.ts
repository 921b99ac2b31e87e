/** The stress mode's part of `conformance --help` (kept apart so `--help` never loads the stress code). */

export const STRESS_HELP = `Stress mode: conformance --stress N [--seed S] [--schedule SPEC] [options] -- <agent command...>
  Runs N random fault schedules (a seeded PRNG: the same --seed gives the same schedules) against
  the agent through the tap (proxy --listen, an agent process per connection), each a session of
  2-4 prompts sent at once (held behind each other) by a keyed, retrying client, with 1-4 faults
  at random points: drop-response, drop-request, delay, disconnect-client, kill-agent (kill -9),
  restart-agent, lose-and-retry, restart-and-retry (the tap's own retries), cancel. Every run's
  trace must hold: at most one insert per key; one messageId per key; every submission answered;
  no key leaked. The first failing run is shrunk to a minimal schedule that keeps its failure (the
  same invariant on the same prompt's key), printed as the command that reproduces it; its trace
  is kept. A resume refused (-32002) for a session with no answered prompt gets a session/new.
  --stress N               how many schedules (with --schedule: how many times to run it)
  --seed S                 the PRNG seed, 0-4294967295 (default: a random one, printed)
  --schedule SPEC          run this schedule, e.g. 3p:drop-response@2.response,kill-agent@1.request
  --concurrency N          runs at the same time (default: 4)
  --run-timeout-ms N       time limit of one run, from its tap listening (default: 30000); a run
                           over it fails
  --attempt-timeout-ms N   how long the client waits for an answer before it resends (default: 1000)
  --no-shrink              do not shrink the first failure
  --keep-traces            keep the traces of passing runs too (default: failures' only)
  --traces-dir DIR, --cwd DIR, --json, --quiet as above`;
