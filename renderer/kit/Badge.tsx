/** Status chips: colour plus an icon and a text label, so they read in greyscale and on a projector. */
import type { ReactNode } from "react";
import { visibleText } from "../model/text/visible-text.js";

/** The colour family of a badge. */
export type BadgeTone = "ok" | "warn" | "error" | "info" | "neutral";

const ICONS: Readonly<Record<BadgeTone, string>> = {
  ok: "✓",
  warn: "!",
  error: "✗",
  info: "i",
  neutral: "•",
};

/**
 * A labelled status chip; `title` explains it on hover; `wrap`: its words may take two lines. A
 * text label and the title often quote the wire (an error message, a messageId), so both are shown
 * through `visibleText`.
 */
export function Badge({
  tone,
  children,
  title,
  wrap,
}: {
  tone: BadgeTone;
  children: ReactNode;
  title?: string;
  wrap?: boolean;
}) {
  return (
    <span
      className={`badge badge--${tone}${wrap ? " badge--wrap" : ""}`}
      title={title === undefined ? undefined : visibleText(title)}
    >
      <span aria-hidden="true">{ICONS[tone]}</span>
      {typeof children === "string" ? visibleText(children) : children}
    </span>
  );
}

/** A verdict severity as the analyzer will report it. */
export type Severity = "pass" | "info" | "warning" | "violation";

const SEVERITY_TONE: Readonly<Record<Severity, BadgeTone>> = {
  pass: "ok",
  info: "info",
  warning: "warn",
  violation: "error",
};

/** A chip for a verdict severity, labelled with the severity's name. */
export function SeverityBadge({ severity, title }: { severity: Severity; title?: string }) {
  return (
    <Badge tone={SEVERITY_TONE[severity]} title={title}>
      {severity}
    </Badge>
  );
}

/** A chip for an attempt outcome (e.g. `answered`, `error -32602`, `no answer`), with a tone chosen by the caller. */
export function OutcomeBadge({ label, tone, title }: { label: string; tone: BadgeTone; title?: string }) {
  return (
    <Badge tone={tone} title={title}>
      {label}
    </Badge>
  );
}
