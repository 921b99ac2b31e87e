/** The Sequence's Export SVG and Export PNG buttons: the rows they cover, the file they download, and what they say. */
import { sequenceSvg, svgExportRange } from "./sequence-export.js";
import { documentPalette, downloadBlob, svgToPng } from "./sequence-files.js";
import type { SequenceLayout } from "./sequence-layout.js";

/** What an export needs: the layout, its width, the rows on screen and the selection. */
export interface SequenceExportInput {
  readonly layout: SequenceLayout;
  readonly width: number;
  readonly firstOnScreen: number;
  readonly lastOnScreen: number;
  readonly selectedSeq: number | null;
}

/** Downloads the diagram as SVG (all rows, or as many as an SVG holds from the screen's top); returns what it did. */
export function exportSequenceSvg(x: SequenceExportInput): string {
  const range = svgExportRange(x.layout.rows.length, x.firstOnScreen);
  const { svg } = sequenceSvg(x.layout, {
    ...range,
    width: x.width,
    palette: documentPalette(document),
    selectedSeq: x.selectedSeq,
  });
  downloadBlob(new Blob([svg], { type: "image/svg+xml" }), "acp-sequence.svg");
  return `Exported rows ${range.from + 1}–${range.to + 1} as SVG`;
}

/** Downloads the rows on screen as PNG; says what it did (or why it failed) through `report`. */
export function exportSequencePng(x: SequenceExportInput, report: (status: string) => void): void {
  const range = { from: x.firstOnScreen, to: x.lastOnScreen };
  const { svg, width, height } = sequenceSvg(x.layout, {
    ...range,
    width: x.width,
    palette: documentPalette(document),
    selectedSeq: x.selectedSeq,
  });
  svgToPng(svg, width, height).then(
    (png) => {
      downloadBlob(png, "acp-sequence.png");
      report(`Exported rows ${range.from + 1}–${range.to + 1} as PNG`);
    },
    (err: unknown) => report(`PNG export failed: ${err instanceof Error ? err.message : String(err)}`),
  );
}
