/** Draws scene primitives as SVG elements themed by CSS classes; wire text is always text content. */
import type { KeyboardEvent } from "react";
import { visibleText } from "../../model/text/visible-text.js";
import type { SceneItem } from "./sequence-scene.js";
import type { Shape } from "./shape.js";

/** One primitive as an SVG element. */
export function ShapeEl({ shape: s }: { shape: Shape }) {
  switch (s.kind) {
    case "line":
      return (
        <line
          x1={s.x1}
          y1={s.y1}
          x2={s.x2}
          y2={s.y2}
          className={`seq-s-${s.stroke}`}
          strokeWidth={s.width}
          strokeDasharray={s.dash}
        />
      );
    case "path":
      return (
        <path
          d={s.d}
          className={`seq-s-${s.stroke} seq-f-${s.fill}`}
          strokeWidth={s.width}
          strokeLinejoin="round"
        />
      );
    case "rect":
      return (
        <rect x={s.x} y={s.y} width={s.w} height={s.h} className={s.hit ? "seq-hit" : `seq-f-${s.fill}`} />
      );
    case "circle":
      return (
        <circle cx={s.cx} cy={s.cy} r={s.r} className={`seq-f-${s.fill} seq-s-${s.stroke}`} strokeWidth={2} />
      );
    case "text":
      return (
        <text
          x={s.x}
          y={s.y}
          className={`seq-f-${s.fill} ${s.mono ? "seq-mono" : "seq-ui"}${s.halo ? " seq-halo" : ""}`}
          fontSize={s.size}
          fontWeight={s.bold ? 700 : undefined}
          textAnchor={s.anchor}
          xmlSpace="preserve"
        >
          {s.text}
        </text>
      );
  }
}

/** An arrow (a button that selects its frame) or a marker (a separator), with its shapes. */
export function SceneItemEl({ item, onSelect }: { item: SceneItem; onSelect(seq: number): void }) {
  const shapes = item.shapes.map((s, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: an item's shapes are a fixed list, never reordered
    <ShapeEl key={i} shape={s} />
  ));
  if (item.role === "separator" || item.seq === null) {
    return (
      // biome-ignore lint/a11y/useSemanticElements: SVG has no <hr>; the marker group carries the separator role
      <g role="separator" aria-label={visibleText(item.ariaLabel)}>
        {shapes}
      </g>
    );
  }
  const seq = item.seq;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onSelect(seq);
    }
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>; it carries the button role instead
    <g
      className="seq-item"
      role="button"
      tabIndex={0}
      aria-label={visibleText(item.ariaLabel)}
      aria-pressed={item.selected}
      onClick={() => onSelect(seq)}
      onKeyDown={onKeyDown}
    >
      <title>{visibleText(item.ariaLabel)}</title>
      {shapes}
    </g>
  );
}
