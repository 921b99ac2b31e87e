/**
 * The column menu of a table: a "Columns" button opening a list of checkboxes, one per hideable
 * column, and a reset of the table's widths, columns and sort. Escape or a click elsewhere closes it.
 */
import { useMenu } from "./use-dismiss.js";

/** One column as the menu lists it. */
export interface MenuColumn {
  readonly id: string;
  readonly name: string;
}

/** Props of ColumnMenu. */
export interface ColumnMenuProps {
  /** The table's name, for the menu's label ("Columns of the Timeline"). */
  readonly table: string;
  readonly columns: readonly MenuColumn[];
  readonly isVisible: (id: string) => boolean;
  readonly onToggle: (id: string, visible: boolean) => void;
  readonly onReset: () => void;
}

/** The button and, while open, its list. */
export function ColumnMenu(props: ColumnMenuProps) {
  const { open, setOpen, panelId, root, button } = useMenu();
  const shown = props.columns.filter((c) => props.isVisible(c.id)).length;
  return (
    <div className="column-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="column-menu__button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        Columns ({shown}/{props.columns.length}) ▾
      </button>
      {open ? (
        <fieldset id={panelId} className="column-menu__panel">
          <legend>Columns of the {props.table}</legend>
          {props.columns.map((c) => (
            <label key={c.id} className="column-menu__item">
              <input
                type="checkbox"
                checked={props.isVisible(c.id)}
                onChange={(e) => props.onToggle(c.id, e.currentTarget.checked)}
              />
              {c.name}
            </label>
          ))}
          <button type="button" onClick={props.onReset}>
            Reset widths, columns and sort
          </button>
        </fieldset>
      ) : null}
    </div>
  );
}
