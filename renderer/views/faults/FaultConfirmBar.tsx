/** The question before a fault that stops a process: its words, the confirm button (focused) and Cancel; Escape cancels. */
import { useEffect, useRef } from "react";
import { visibleText } from "../../model/text/visible-text.js";
import { faultConfirm, useFaultQuestion } from "./fault-confirm.js";

/** The confirm bar, shown while a question is open. */
export function FaultConfirmBar() {
  const q = useFaultQuestion();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (q) confirmRef.current?.focus();
  }, [q]);
  if (!q) return null;
  const close = () => faultConfirm.setState({ question: null });
  return (
    <div
      className="fault-confirm"
      role="alertdialog"
      aria-label="Confirm fault"
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.preventDefault(); // the question closes, the drawer stays
        close();
      }}
    >
      <span>{visibleText(q.text)}</span>{" "}
      <button
        ref={confirmRef}
        type="button"
        onClick={() => {
          close();
          q.run();
        }}
      >
        {visibleText(q.confirmLabel)}
      </button>{" "}
      <button type="button" onClick={close}>
        Cancel
      </button>
    </div>
  );
}
