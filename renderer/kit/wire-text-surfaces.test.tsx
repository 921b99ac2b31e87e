/**
 * Issue 31 item 9 for the surfaces the browser spec (e2e/browser/wire-text.spec.ts) does not reach
 * without a real agent: the Conformance tab's agent picker, its command confirmation and its case
 * table, plus the shared chips and words every view uses. Each renders wire or file text with a
 * right-to-left override, a C1 control and an escape; none may reach the markup unmarked.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { AgentChoice, CaseRow } from "../../shared/conformance/conformance-run.js";
import { entryTitle } from "../app/toolbar/trace-words.js";
import { visibleText } from "../model/text/visible-text.js";
import type { TraceEntry } from "../model/traces/trace-catalog.js";
import { CaseTable } from "../views/conformance/CaseTable.js";
import { tapWords } from "../views/faults/fault-form.js";
import { ResultWords, shownResult } from "../views/timeline/result-words.js";
import { AgentPicker } from "./AgentPicker.js";
import { Badge } from "./Badge.js";
import { CommandConfirm } from "./CommandConfirm.js";

const RLO = "\u202E";
const C1 = "\u0085";
const ESC = "\u001b";
/** True when `html` holds a control `visibleText` would mark (data-* attributes are not shown, so not counted). */
const hasHidden = (html: string) => {
  const shown = html.replace(/ data-[a-z-]+="[^"]*"/g, "");
  return visibleText(shown) !== shown;
};

const choice: AgentChoice = {
  id: "a1",
  label: `agent ${RLO}tnega`,
  source: "config",
  target: `/opt/${RLO}exe.ftp/agent --x${C1}`,
  cwd: `/w/${RLO}dwc`,
  note: `note ${ESC}[2J`,
};

describe("wire text on the Conformance tab and in shared chips", () => {
  it("the agent picker and the command confirmation show the command as it will run, controls marked", () => {
    const picker = renderToStaticMarkup(
      <AgentPicker choices={[choice]} value="a1" disabled={false} onChange={() => {}} />,
    );
    const confirm = renderToStaticMarkup(
      <CommandConfirm label="Confirm" chosen={choice} howOften="once" onRun={() => {}} onBack={() => {}} />,
    );
    for (const html of [picker, confirm]) {
      expect(hasHidden(html)).toBe(false);
      expect(html).toContain("/opt/⟦U+202E⟧exe.ftp/agent --x⟦U+0085⟧");
    }
    expect(picker).toContain("agent ⟦U+202E⟧tnega");
    expect(picker).toContain("note ⟦U+001B⟧[2J");
  });

  it("the case table marks controls in case names, titles, rules and reasons", () => {
    const row: CaseRow = {
      name: `case-${RLO}x` as CaseRow["name"],
      title: `title ${C1}`,
      rule: `rule ${RLO}`,
      required: true,
      state: "fail",
      reason: `agent said ${RLO}ko${ESC}[31m`,
    };
    const html = renderToStaticMarkup(<CaseTable cases={[row]} onOpenTrace={() => {}} />);
    expect(hasHidden(html)).toBe(false);
    expect(html).toContain("agent said ⟦U+202E⟧ko⟦U+001B⟧[31m");
  });

  it("badges, result words, tap words and trace tooltips mark them too", () => {
    const badge = renderToStaticMarkup(
      <Badge tone="error" title={`error ${RLO}rorre`}>
        {`-32603 ${C1}`}
      </Badge>,
    );
    expect(hasHidden(badge)).toBe(false);
    expect(badge).toContain('title="error ⟦U+202E⟧rorre"');
    const words = `inserted once → messageId m${RLO}1`;
    expect(hasHidden(renderToStaticMarkup(<ResultWords text={words} />))).toBe(false);
    expect(shownResult(words)).toBe("inserted once → messageId m⟦U+202E⟧1");
    const tap = { traceId: "t", name: `tap ${RLO}x`, agentPids: [7] } as unknown as Parameters<
      typeof tapWords
    >[0][number];
    expect(tapWords([tap], false)).toBe("tap tap ⟦U+202E⟧x (pid 7)");
    const entry = {
      id: "t1",
      label: "x",
      detail: "",
      command: [`/bin/${RLO}sh`],
      cwd: `/w${C1}`,
    } as unknown as TraceEntry;
    expect(entryTitle(entry)).toBe("x\ncommand: /bin/⟦U+202E⟧sh\nfolder: /w⟦U+0085⟧\ntrace id: t1");
  });
});
