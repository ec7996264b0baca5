/**
 * An online log template miner of the Drain family (He, Zhu, Zheng, Lyu 2017, "Drain: An Online
 * Log Parsing Approach with Fixed Depth Tree", ICWS): a message's masked tokens (mask.ts) walk a
 * fixed-depth prefix tree, first by token count, then by its first `DEPTH` tokens (a token
 * holding the wildcard goes down the wildcard branch; past `MAX_CHILDREN` children new tokens go
 * there too); the leaf holds templates of that shape, and the message joins the most similar one
 * (share of positions with the same token, wildcards not counted) when that share reaches
 * `SIMILARITY`, turning the positions that differ into wildcards; else it starts a template of
 * its own. The thresholds are the paper's defaults for depth 4 (two leading tokens under the
 * length level) and its similarity 0.5 for most of its datasets.
 *
 * `add` takes a template with a weight too, so mined templates merge again (`mergeTemplates`):
 * the templates of several bundles of one boot, or of two boots compared.
 */
import { WILDCARD, maskedKey } from "./mask";

/** Leading tokens used as tree levels under the token count. */
export const DEPTH = 2;
/** Least share of equal positions for a message to join a template (0..1). */
export const SIMILARITY = 0.5;
/** Children per tree node before new tokens go down the wildcard branch. */
export const MAX_CHILDREN = 100;
/**
 * Masked token sequences remembered with the template they joined: the same sequence again joins
 * it at once (most lines of a log repeat one once their ids are masked), skipping the leaf's
 * similarity scan; past this many, new sequences take the scan.
 */
export const MAX_EXACT = 50_000;

/** One template: its tokens (wildcards as `WILDCARD`) and what the caller keeps with it. */
export interface Cluster<S> {
  tokens: string[];
  stats: S;
}

interface TreeNode<S> {
  children: Map<string, TreeNode<S>>;
  clusters: Cluster<S>[];
}

const newNode = <S>(): TreeNode<S> => ({ children: new Map(), clusters: [] });

/** True when a token goes down the wildcard branch of the tree. */
const hasWildcard = (t: string) => t.includes(WILDCARD);

/** Share of positions where `a` and the template `t` hold the same token (a wildcard agrees only with a masked token), 0..1. */
function similarity(t: readonly string[], a: readonly string[]): number {
  let same = 0;
  for (let i = 0; i < t.length; i++) if (t[i] === a[i]) same++;
  return t.length ? same / t.length : 1;
}

/**
 * The miner. `S` is the caller's per-template state: `create()` makes it for a new template,
 * and the caller updates the cluster `add` returns.
 */
export class Drain<S> {
  private readonly root = new Map<number, TreeNode<S>>();
  private readonly exact = new Map<string, Cluster<S>>();
  readonly clusters: Cluster<S>[] = [];
  constructor(private readonly create: () => S) {}

  /**
   * Mines one message (masked here); returns its template's cluster. The same as `add` of its
   * masked tokens: its masked sequence (`maskedKey`) is looked up whole, and split into tokens
   * only when not seen before.
   */
  addMessage(message: string): Cluster<S> {
    const key = maskedKey(message);
    const seen = this.exact.get(key);
    if (seen) return seen;
    // `add` keeps a copy of its own (`key` may hold pieces of the message)
    return this.add(templateTokens(key));
  }

  /** Adds masked tokens (a message's, or another template's); returns the cluster they joined or started. */
  add(tokens: string[]): Cluster<S> {
    const seq = tokens.join(" ");
    const seen = this.exact.get(seq);
    if (seen) return seen;
    const c = this.place(tokens);
    if (this.exact.size < MAX_EXACT) this.exact.set(seq, c);
    return c;
  }

  /** The tree's step for a sequence not seen before: the most similar template of its leaf, widened, or a new one. */
  private place(tokens: string[]): Cluster<S> {
    const leaf = this.leaf(tokens);
    let best: Cluster<S> | null = null;
    let bestSim = -1;
    for (const c of leaf.clusters) {
      const s = similarity(c.tokens, tokens);
      if (s > bestSim) {
        best = c;
        bestSim = s;
      }
    }
    if (best && bestSim >= SIMILARITY) {
      const t = best.tokens;
      for (let i = 0; i < t.length; i++) if (t[i] !== tokens[i] && t[i] !== WILDCARD) t[i] = WILDCARD;
      return best;
    }
    const c: Cluster<S> = { tokens: [...tokens], stats: this.create() };
    leaf.clusters.push(c);
    this.clusters.push(c);
    return c;
  }

  private leaf(tokens: readonly string[]): TreeNode<S> {
    let node: TreeNode<S> | undefined = this.root.get(tokens.length);
    if (!node) this.root.set(tokens.length, (node = newNode<S>()));
    const depth = Math.min(DEPTH, tokens.length);
    for (let d = 0; d < depth; d++) {
      const t = tokens[d];
      let key = hasWildcard(t) ? WILDCARD : t;
      let next: TreeNode<S> | undefined = node.children.get(key);
      if (!next && key !== WILDCARD && node.children.size >= MAX_CHILDREN) next = node.children.get((key = WILDCARD));
      if (!next) node.children.set(key, (next = newNode<S>()));
      node = next;
    }
    return node;
  }
}

/** A template's text: its tokens joined with single spaces. */
export const templateText = (tokens: readonly string[]) => tokens.join(" ");

/** A template text's tokens back (`templateText`'s inverse). */
export const templateTokens = (template: string) => template.split(" ");
