/**
 * The "not named by the logs" mark of a node whose name was made from the upload's file name
 * (`nameSource` `upload`): a badge whose tooltip (on hover and on keyboard focus) says why and how
 * to fix it. Nothing for other nodes. Server-renderable.
 */
import styles from "./node-name.module.css";

/** What the mark's tooltip says. */
export const UNNAMED_NODE_TIP =
  "None of this node's log lines named a node (no hostname, node field or folder), so bootline named it after the uploaded file. " +
  "Rename it on the incident page (the old name keeps working in links), or upload the logs again with the node name option set.";

export function NodeNameMark({ nameSource }: { nameSource?: string | null }) {
  if (nameSource !== "upload") return null;
  return (
    <span className={styles.mark} tabIndex={0} title={UNNAMED_NODE_TIP} data-testid="node-unnamed">
      not named by the logs
      <span className={styles.tip} role="tooltip">
        {UNNAMED_NODE_TIP}
      </span>
    </span>
  );
}
