import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ArmedFault } from "../../shared/faults/armed-fault.js";
import type { FaultRule } from "../../shared/faults/fault-rule.js";
import { FaultRuleSet } from "../../shared/faults/fault-rule-set.js";
import { HUB_PROTOCOL_VERSION } from "../../shared/hub/protocol-version.js";
import type { HubReply } from "../../shared/hub/ui-wire.js";
import { classifyFrame } from "../../shared/protocol/frame.js";
import { TRACE_FORMAT } from "../../shared/trace/record.js";
import { createHubLink, type HubLink } from "../tap/hub-link/hub-link.js";
import { TapSocket } from "../tap/hub-link/tap-socket.js";
import { connectUiProbe, type UiProbe } from "../tools/testing/ui-probe.js";
import { type RunningHub, startHub } from "./hub-server.js";

let dir: string;
let hub: RunningHub;
let link: HubLink;
let ui: UiProbe;
const header = { format: TRACE_FORMAT, version: 1, tool: "test", startedAt: "2026-01-01T00:00:00Z" } as const;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-faultflow-"));
  hub = await startHub({ tracesDir: join(dir, "traces"), flushMs: 10 });
  link = createHubLink({ header, hub: { port: hub.port, token: hub.token } });
  await new Promise<void>((resolve) => link.onAttach((a) => a && resolve()));
  ui = await connectUiProbe(hub.port, hub.token);
});
afterEach(async () => {
  ui.close();
  await link.close(100);
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves with the next rule list the link delivers that satisfies `pred` (bounded by the test timeout). */
function rulesWhere(pred: (r: readonly FaultRule[]) => boolean): Promise<readonly FaultRule[]> {
  return new Promise((resolve) => {
    const off = link.onFaultRules((rules) => {
      if (!pred(rules)) return;
      off();
      resolve(rules);
    });
  });
}

describe("fault rules from UI to tap and back", () => {
  it("arms over the UI socket, reaches the tap, and is consumed by the tap's fault records", async () => {
    const set = new FaultRuleSet();
    link.onFaultRules((rules) => set.replace(rules));
    const delivered = rulesWhere((r) => r.length === 1);
    ui.send({
      t: "fault-arm",
      ref: "a1",
      spec: {
        action: "drop-request",
        match: { method: "session/prompt" },
        count: 2,
        target: { tap: link.stats().traceId },
      },
    });
    const reply = (await ui.waitFor((m) => m.t === "reply" && m.ref === "a1")) as HubReply;
    expect(reply.ok).toBe(true);
    const armed = reply.ok ? (reply.value as { rule: FaultRule }).rule : undefined;
    const [rule] = await delivered;
    expect(rule).toMatchObject({ id: armed?.id, count: 2 });

    const prompt = classifyFrame(
      '{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s"}}',
    );
    expect(set.decide(prompt, "client->agent").action).toBe("drop");
    const afterOne = rulesWhere((r) => r[0]?.count === 1);
    link.send({
      type: "fault",
      seq: 1,
      ts: 1,
      action: "drop-request",
      ruleId: rule?.id as string,
      frameSeq: 0,
    });
    await afterOne; // the hub lowered the count from the tap's fault record
    expect(set.decide(prompt, "client->agent").action).toBe("drop");
    const gone = rulesWhere((r) => r.length === 0);
    link.send({
      type: "fault",
      seq: 2,
      ts: 2,
      action: "drop-request",
      ruleId: rule?.id as string,
      frameSeq: 0,
    });
    await gone;
    expect(set.decide(prompt, "client->agent").action).toBe("forward");
    const rulesNow = await fetch(`http://127.0.0.1:${hub.port}/api/faults`, {
      headers: { Authorization: `Bearer ${hub.token}` },
    });
    const board = (await rulesNow.json()) as { rules: unknown[]; recent: ArmedFault[] };
    expect(board.rules).toEqual([]);
    // the used-up rule left the armed list and says where and how often it fired
    expect(board.recent[0]).toMatchObject({
      state: "used",
      fired: 2,
      lastFired: { traceId: link.stats().traceId },
    });
  });

  it("delivers an immediate rule once to the attached taps, then disarms it", async () => {
    const set = new FaultRuleSet();
    const applied: FaultRule[] = [];
    link.onFaultRules((rules) => applied.push(...set.replace(rules)));
    const cleared = rulesWhere((r) => r.length === 0);
    const res = await fetch(`http://127.0.0.1:${hub.port}/api/faults`, {
      method: "POST",
      headers: { Authorization: `Bearer ${hub.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ action: "restart-agent", target: { all: true } }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ immediate: true, taps: 1, rule: { action: "restart-agent" } });
    await cleared;
    expect(applied.map((r) => r.action)).toEqual(["restart-agent"]);
    expect(
      (
        (await (
          await fetch(`http://127.0.0.1:${hub.port}/api/faults`, {
            headers: { Authorization: `Bearer ${hub.token}` },
          })
        ).json()) as { rules: unknown[] }
      ).rules,
    ).toEqual([]);
  });

  it("answers only once the tap acknowledged; a rule no tap acknowledges is refused and disarmed", async () => {
    // the link acknowledges: the reply comes after the ack, and the board says armed
    ui.send({
      t: "fault-arm",
      ref: "k1",
      spec: { action: "drop-response", target: { tap: link.stats().traceId } },
    });
    const ok = (await ui.waitFor((m) => m.t === "reply" && m.ref === "k1")) as HubReply;
    expect(ok).toMatchObject({
      ok: true,
      value: { fault: { state: "armed", taps: [{ traceId: link.stats().traceId, acked: true }] } },
    });
    // a tap that says hello but never acknowledges (an old or stuck tap)
    const slowHub = await startHub({ tracesDir: join(dir, "slow"), flushMs: 10, faultAckTimeoutMs: 300 });
    const seen: string[] = [];
    const mute = new TapSocket(
      { port: slowHub.port, token: slowHub.token },
      { t: "hello", v: HUB_PROTOCOL_VERSION, tapId: "mute-tap-0001", header: { ...header, name: "mute" } },
      { onMessage: (m) => seen.push(m.t), onClose: () => {}, log: () => {} },
    );
    try {
      let traceId: string | undefined;
      for (let i = 0; i < 100 && !traceId; i++) {
        const taps = (await (
          await fetch(`http://127.0.0.1:${slowHub.port}/api/taps`, {
            headers: { Authorization: `Bearer ${slowHub.token}` },
          })
        ).json()) as { taps: { traceId: string; attached: boolean }[] };
        traceId = taps.taps.find((t) => t.attached)?.traceId;
        if (!traceId) await new Promise((r) => setTimeout(r, 20));
      }
      const res = await fetch(`http://127.0.0.1:${slowHub.port}/api/faults`, {
        method: "POST",
        headers: { Authorization: `Bearer ${slowHub.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ action: "drop-response", target: { tap: traceId } }),
      });
      expect(res.status).toBe(409);
      expect(await res.text()).toContain("tap mute did not acknowledge rule");
      expect(seen).toContain("fault-rules"); // it was sent, just never acknowledged
      const board = (await (
        await fetch(`http://127.0.0.1:${slowHub.port}/api/faults`, {
          headers: { Authorization: `Bearer ${slowHub.token}` },
        })
      ).json()) as { rules: unknown[] };
      expect(board.rules).toEqual([]);
    } finally {
      await mute.close();
      await slowHub.close();
    }
  });

  it("refuses a rule with no target, or for a tap that is not attached", async () => {
    for (const [spec, words] of [
      [{ action: "drop-response" }, "a rule needs a target"],
      [{ action: "drop-response", target: { tap: "nope" } }, "no tap nope is attached"],
      [{ action: "drop-response", target: { all: false } }, "target must be"],
    ] as const) {
      const ref = `t-${words.length}`;
      ui.send({ t: "fault-arm", ref, spec });
      expect(await ui.waitFor((m) => m.t === "reply" && m.ref === ref)).toMatchObject({
        ok: false,
        error: expect.stringContaining(words),
      });
    }
  });

  it("answers bad UI commands with an error and never runs anything", async () => {
    ui.send({ t: "fault-arm", ref: "b", spec: { action: "delay" } });
    expect(await ui.waitFor((m) => m.t === "reply" && m.ref === "b")).toMatchObject({
      ok: false,
      error: expect.stringContaining("delayMs"),
    });
    ui.send({ t: "fault-disarm", ref: "c", id: "r999" });
    expect(await ui.waitFor((m) => m.t === "reply" && m.ref === "c")).toMatchObject({ ok: false });
    ui.send({ t: "spawn", command: ["sh", "-c", "touch /tmp/pwned"] } as never);
    expect(await ui.waitFor((m) => m.t === "error")).toMatchObject({
      message: expect.stringContaining("unknown UI message"),
    });
  });
});
