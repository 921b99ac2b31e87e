/**
 * The Sequence's drawing: the lane titles above, and the scrolling body with the window of rows on
 * screen as one SVG (match marks behind the rows, the lane lines, the scene's arrows and markers).
 * Laid out in diagram units and shown `scale` times as large.
 */
import type { RefObject, UIEvent } from "react";
import { EmptyState } from "../../kit/EmptyState.js";
import { HEADER_HEIGHT, laneHeader } from "./lanes.js";
import { SceneItemEl, ShapeEl } from "./SceneShapes.js";
import type { PlacedRow } from "./sequence-layout.js";
import type { buildScene } from "./sequence-scene.js";

/** Props of SequenceCanvas. */
export interface SequenceCanvasProps {
  readonly scrollRef: RefObject<HTMLDivElement | null>;
  readonly lanesRef: RefObject<HTMLDivElement | null>;
  onScroll(e: UIEvent<HTMLDivElement>): void;
  /** The diagram's width and height, in diagram units. */
  readonly width: number;
  readonly height: number;
  /** Screen px per diagram unit. */
  readonly scale: number;
  readonly rowCount: number;
  /** The rows on screen (and a margin), drawn. */
  readonly scene: ReturnType<typeof buildScene>;
  /** The matching rows among them, marked behind. */
  readonly marks: readonly PlacedRow[];
  onSelectSeq(seq: number): void;
}

/** The lane titles and the scrolling diagram. */
export function SequenceCanvas(p: SequenceCanvasProps) {
  const { width, scale, scene } = p;
  return (
    <>
      <div className="seq__lanes-strip" ref={p.lanesRef}>
        <svg
          className="seq__lanes"
          width={width * scale}
          height={HEADER_HEIGHT * scale}
          viewBox={`0 0 ${width} ${HEADER_HEIGHT}`}
          role="img"
          aria-label="Lanes: Client, Inspector, Agent"
        >
          {laneHeader(width).map((s, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of shapes, never reordered
            <ShapeEl key={i} shape={s} />
          ))}
        </svg>
      </div>
      <div className="seq__scroll" ref={p.scrollRef} onScroll={p.onScroll}>
        {p.rowCount === 0 ? (
          <EmptyState title="No frames yet">
            <p>Arrows appear here as frames pass the inspector, or when you import a trace file.</p>
          </EmptyState>
        ) : (
          <div className="seq__body" style={{ height: p.height * scale, width: width * scale }}>
            {/* biome-ignore lint/a11y/useSemanticElements: an <svg> cannot be a <fieldset>; it carries the group role */}
            <svg
              className="seq__window"
              style={{ top: scene.top * scale }}
              width={width * scale}
              height={(scene.bottom - scene.top) * scale}
              viewBox={`0 ${scene.top} ${width} ${scene.bottom - scene.top}`}
              role="group"
              aria-label="Frames"
            >
              {p.marks.map((row) => (
                <g key={`m${row.y}`} className="seq-match">
                  <rect x={0} y={row.y} width={width} height={row.height} className="seq-match__band" />
                  <rect x={0} y={row.y} width={4} height={row.height} className="seq-match__edge" />
                </g>
              ))}
              {scene.lanes.map((s, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: always the same three lane lines
                <ShapeEl key={i} shape={s} />
              ))}
              {scene.items.map((item) => (
                <SceneItemEl key={item.key} item={item} onSelect={p.onSelectSeq} />
              ))}
            </svg>
          </div>
        )}
      </div>
    </>
  );
}
