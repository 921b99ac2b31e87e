/**
 * The columns of a VirtualTable: the react-table features every table registers, the column type
 * and helper bound to them, and a column's name for labels.
 */
import {
  type ColumnDef,
  columnResizingFeature,
  columnSizingFeature,
  columnVisibilityFeature,
  createColumnHelper,
  type RowData,
  rowSortingFeature,
  tableFeatures,
} from "@tanstack/react-table";

/** The table features every VirtualTable registers. */
export const virtualTableFeatures = tableFeatures({
  columnSizingFeature,
  columnResizingFeature,
  columnVisibilityFeature,
  rowSortingFeature,
});

/** A column of a VirtualTable over rows of type T. */
// biome-ignore lint/suspicious/noExplicitAny: react-table's column arrays are heterogeneous in their value type.
export type VirtualColumn<T extends RowData> = ColumnDef<typeof virtualTableFeatures, T, any>;

/** A column helper bound to VirtualTable's features. */
export function virtualColumnHelper<T extends RowData>() {
  return createColumnHelper<typeof virtualTableFeatures, T>();
}

/** A column's name for labels: its header text, or its id. */
export function columnName(header: unknown, id: string): string {
  return typeof header === "string" ? header : id;
}
