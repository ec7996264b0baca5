/**
 * A reviewer names a node by hand: the node takes the new name, keeps the old one among its
 * `aliases` (so links to the old name still find it: lib/queries/get-boot-view.ts), its
 * `nameSource` becomes `reviewer` (which clears "not named by the logs"), and the incident's
 * source files listed on the old name move with it. Giving the node its current name confirms it
 * (only `nameSource` changes).
 *
 * Errors: `bad_request` for an empty name, one over `MAX_NODE_NAME` characters or one with control
 * characters; `not_found` when the incident has no such node; `conflict` (409) when another node of
 * the incident has that name or alias.
 */
import type { DbHandles } from "@/lib/db/connection";
import { ApiError } from "@/lib/http/errors";

/** Longest node name, characters (a Kubernetes node name is a DNS subdomain: at most 253). */
export const MAX_NODE_NAME = 253;

export interface TRenamedNode {
  id: number;
  name: string;
  aliases: string[];
  /** always `reviewer` */
  nameSource: string;
  /** the name before */
  previous: string;
}

/** The name as it will be stored (trimmed), or an `ApiError("bad_request")` saying what is wrong. */
export function checkNodeName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new ApiError("bad_request", "give the node a name");
  if (name.length > MAX_NODE_NAME) throw new ApiError("bad_request", `a node name has at most ${MAX_NODE_NAME} characters (this one has ${name.length})`);
  if (/\p{Cc}/u.test(name)) throw new ApiError("bad_request", "a node name cannot hold control characters (tabs, line breaks)");
  return name;
}

export async function renameNode(db: Pick<DbHandles, "sql">, opts: { incidentId: string; nodeId: number; name: string }): Promise<TRenamedNode> {
  const name = checkNodeName(opts.name);
  try {
    return await db.sql.transaction(async (tx) => {
      const [node] = await tx.query<{ id: number; name: string; aliases: string[] }>(
        `SELECT id, name, aliases FROM "Node" WHERE id = $1 AND "incidentId" = $2 FOR UPDATE`,
        [opts.nodeId, opts.incidentId],
      );
      if (!node) throw new ApiError("not_found", "node not found in this incident");
      const [other] = await tx.query<{ name: string }>(
        `SELECT name FROM "Node" WHERE "incidentId" = $1 AND id <> $2 AND (name = $3 OR $3 = ANY(aliases)) LIMIT 1`,
        [opts.incidentId, node.id, name],
      );
      if (other) {
        throw new ApiError(
          "conflict",
          other.name === name
            ? `another node of this incident is already named “${name}”`
            : `“${name}” is another name of node “${other.name}” in this incident`,
        );
      }
      const aliases = name === node.name ? node.aliases : [...new Set([...node.aliases.filter((a) => a !== name), node.name])].sort();
      await tx.query(`UPDATE "Node" SET name = $2, aliases = $3, "nameSource" = 'reviewer' WHERE id = $1`, [node.id, name, aliases]);
      if (name !== node.name)
        await tx.query(`UPDATE "SourceFile" SET "nodeName" = $3 WHERE "incidentId" = $1 AND "nodeName" = $2`, [opts.incidentId, node.name, name]);
      return { id: node.id, name, aliases, nameSource: "reviewer", previous: node.name };
    });
  } catch (e) {
    // a node took the name between the check and the update (the (incidentId, name) unique index)
    if ((e as { code?: string })?.code === "23505") throw new ApiError("conflict", `another node of this incident is already named “${name}”`);
    throw e;
  }
}
