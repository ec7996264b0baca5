/**
 * What terminals, pagers and people add around log lines pasted into a bug report, as pure line
 * tests (used by parse-file.ts; decided once per file where possible):
 *
 * - Paste banner lines: not records, not errors (counted as banner `header`):
 *   shell prompts with the command they ran (`root@node-p:~# crictl runp pod.json`,
 *   `user@host:~/dir$ kubectl logs …`, `[root@h dir]# …`, `$ kubectl …`, `PS C:\> …`, `C:\> …`,
 *   `bash-5.1# …`), user comments (`#`, `##`, `// …`), Markdown code fences (`` ``` ``,
 *   ```` ```log ````), grep's group separator (`--`). A prompt's host is the machine the user typed
 *   on, never a node.
 * - Paste furniture, also banner `header` (`Furniture`): a command typed without a prompt
 *   (`journalctl -xeu kubelet`, `sudo crictl ps`, `KUBECONFIG=… kubectl -n kube-system describe pod x`),
 *   logcli's `Common labels: {…}` line, a chat client's author line (`Jane Doe  9:41 AM`), kubectl's notices (`Defaulted container "x" out of: a, b`,
 *   `Defaulting container name to x.`,
 *   `Use 'kubectl describe pod/x -n ns' to see all of the containers in this pod.`), elision marks
 *   (`...`, `…`, `[...]`, `(...)`, `<snip>`, `... 40 more lines`, `[47 duplicate lines deleted]`), horizontal rules (4+ `-`/`=`),
 *   start-up chatter of CNI agents' entry scripts (`ovsdb-server is running with pid 3001`,
 *   `iptables v1.8.10 (nf_tables)`), and three blocks:
 *   - `systemctl status` (systemd >= 2xx): `● unit.service - Description` then its indented
 *     `Loaded:`/`Active:`/`CGroup:` lines and `└─` tree lines, up to a blank or unindented line;
 *   - a version banner between rules (kube-ovn `cniserver`: a `-----` rule, `Kube-OVN:`,
 *     `  Version: v1.13.9`, `  Build: …`, `  Commit: …`, a closing rule): after a rule, `Name:` and
 *     `Key: value` lines and indented lines;
 *   - tables of node tools with no time column: `crictl pods` (`POD ID  CREATED  STATE  NAME
 *     NAMESPACE  ATTEMPT  RUNTIME`), `crictl ps` (`CONTAINER  IMAGE  CREATED  STATE  NAME  ATTEMPT
 *     POD ID  POD`), `crictl images`, `docker ps`, `kubectl get pods|nodes`: the header and the
 *     rows under it (2+ columns split by 2+ blanks) up to a blank line. Their rows carry no time
 *     and no failure, so they are banners, not records.
 * - Line decorations of Markdown (`detectDecoration`): a code block indented by 4 or 8 blanks or a
 *   tab, a `> ` block quote (`>` alone on blank quoted lines), stripped only when the lines sniff
 *   without it.
 * - More one-line furniture: a line of only closing quotes or backticks (`"`, `'`, `` '` ``: the
 *   tail of a row a user wrapped in quotes or inline code), HTML tags GitHub renders (`<details>`,
 *   `<summary>…</summary>`, `</details>`, `<pre>`, `<br>`), a chat client's Markdown link to a
 *   message (`[7:25](https://…slack.com/archives/…)`) or a bare URL line, a diff's file
 *   and hunk headers (`diff --git`, `--- a/x`, `+++ b/x`, `@@ -1,4 +1,6 @@`), and the
 *   `stream closed` trailer log tools print when a container's stream ends. A short prose label
 *   ending with a colon (`Logs error:`, `Events from the pod:`; `isProseLabel`) is furniture only
 *   where the file's format refused it.
 * - Decorations taken off before the sniff (colour codes, pager cut marks, frames, inline-code
 *   backticks, emphasis) are the transforms of `lib/parse/transforms/`.
 * - Hard wraps: a terminal (or a mail/issue form) breaks long lines at a fixed width; the piece
 *   after a line of about that width, that starts no record, continues it (`detectWrapWidth`,
 *   `isWrapTail`).
 */

/** Shell prompt followed by a command (see the module comment). */
const PROMPT =
  /^(?:[$%]\s*$|\([\w.-]+\) [\w.-]+@[\w.-]+(?::[^\s#$%]*)?\s?[#$%] ?|[\w.-]+@[\w.-]+ [^\s#$%]+ [#$%] ?|[\w.-]+:[~/][^\s#$%]* # ?|[\w.-]+@[\w.-]+(?::[^\s#$%]*)?\s?[#$%] ?|\[[\w.-]+@[\w.-]+(?: [^\]]*)?\][#$%] ?|[$%] \S|PS [A-Za-z]:\\[^>]*> ?|[A-Za-z]:\\[^>]*> ?|(?:ba|z|)sh-\d+(?:\.\d+)*[#$] ?|❯ \S|➜ )/;
/** A comment, Markdown fence or grep separator line. */
const NOTE = /^(?:#+(?:\s|$)|\/\/ |```[\w-]*\s*$|--$|~~~\s*$)/;

/** A command typed without a prompt: optional `sudo`, `VAR=value` words, then a node/cluster tool. */
const COMMAND =
  /^(?:sudo(?: -\S+)* )?(?:[A-Z_][A-Z0-9_]*=\S* )*(?:kubectl|k|oc|crictl|ctr|nerdctl|docker|podman|journalctl|systemctl|talosctl|microk8s(?:\.kubectl)?|k3s|rke2|minikube|kind|stern|kubetail|cat|zcat|tail|less|grep|egrep|dmesg|aws|gcloud|helm|calicoctl|cilium)(?: +[^\s:][^\t]*)?$/;
/** A shell's trace of the command it runs (`set -x`, a CI job's script: `+ kubectl describe pod x`, `++ date`). */
const XTRACE =
  /^\++ (?:sudo(?: -\S+)* )?(?:[A-Z_][A-Z0-9_]*=\S* )*(?:kubectl|k|oc|crictl|ctr|nerdctl|docker|podman|journalctl|systemctl|talosctl|microk8s(?:\.kubectl)?|k3s|rke2|minikube|kind|stern|kubetail|cat|zcat|tail|less|grep|egrep|dmesg|aws|gcloud|helm|calicoctl|cilium|echo|date|sleep)(?: |$)/;
/**
 * Section heads of a log bundle printed as one text: `tail` of several files and `minikube logs`
 * (`==> kubelet <==`, `==> storage-provisioner [5e6f7a8b9c0d] <==`).
 */
const SECTION_HEAD = /^==> .{1,200} <==\s*$/;
/**
 * `minikube logs` furniture (v1.10+ leads its own lines with `* `): a section head
 * (`* ==> Audit <==`), a lone `*`, the Audit table's rules and rows (`* |---------|`, `* | start | …|`).
 */
const MINIKUBE = /^\*(?:\s*$| ==> .{1,200} <==\s*$| \|.*\|\s*$)/;
/** kubectl notices, agent start-up chatter, and table headers of node tools (see the module comment). */
const NOTICE =
  /^(?:Common labels: \{|Defaulted container "|Defaulting container name to |Use 'kubectl describe |Found \d+ pods, using pod\/|Unable to use a TTY|If you don't see a command prompt|[\w.-]+ is (?:not )?running(?: with pid \d+)?\.?\s*$|[\w.-]+ v?\d+\.\d+(?:\.\d+)*(?:[-+][\w.]+)? \([\w. -]+\)\s*$)/;
/** Header of a table with no time column (crictl pods/ps/images, docker ps, kubectl get pods/nodes). */
const TABLE_HEAD =
  /^(?:POD ID {2,}CREATED {2,}STATE {2,}NAME|CONTAINER(?: ID)? {2,}IMAGE {2,}(?:CREATED|COMMAND)|IMAGE {2,}TAG {2,}IMAGE ID|(?:NAMESPACE {2,})?NAME {2,}(?:READY {2,}STATUS|STATUS {2,}ROLES))/;
/**
 * The author line a chat client puts over a copied message: a name (one to four words, the first
 * capitalised), one or two blanks, and the message's time, and nothing after it (Slack `Jane Doe
 * 9:41 AM`, `Today at 9:41 AM`, Teams `Jane Doe 09:41`); Slack's `APP` tag of a bot may sit between.
 */
const CHAT_AUTHOR = /^\p{Lu}[\p{L}.'-]*(?: [\p{L}.'-]+){0,3}(?: APP)? {1,2}(?:(?:Today|Yesterday) at )?\d{1,2}:\d{2}(?: ?[AaPp]\.?[Mm]\.?)?\s*$/u;
/** A line of closing quotes/backticks only (the tail of a quoted or inline-code row). */
const QUOTE_TAIL = /^\s*["'`]{1,3}\s*$/;
/** HTML tags of a GitHub issue body (`<details>`, `<summary>title</summary>`, `</details>`, `<pre>`, `<br/>`). */
const HTML_TAG =
  /^\s*(?:<\/?(?:details|summary|pre|code|p|br|hr|b|sub|sup|kbd|blockquote)\b[^>]{0,80}>\s*)+(?:[^<>]{0,120}<\/(?:summary|b|code|sub|sup|kbd|p)>\s*)?$/i;
/** A Markdown link line (a chat client's link to a message: `[7:25](https://…)`) or a bare URL. */
const LINK_LINE = /^\s*(?:\[[^\]]{0,80}\]\(https?:\/\/[^\s)]+\)|<?https?:\/\/\S+?>?)\s*$/;
/** A short prose label ending with a colon (`Logs error:`, `Events from the pod:`, `kubelet logs:`). */
const LABEL_LINE = /^[A-Za-z][A-Za-z]*(?: [A-Za-z][\w'()/-]*){0,5}:\s*$/;
/**
 * Is `line` a short prose label ending with a colon, two to six words (`Logs error:`, `kubelet
 * logs:`)? Asked only about lines the file's format refused: a describe's own key lines
 * (`Containers:`, `Events:`) are the format's.
 */
export function isProseLabel(line: string): boolean {
  const n = line.length;
  if (n > 60 || n < 4) return false;
  const e = line.trimEnd();
  return e.charCodeAt(e.length - 1) === 58 && e.indexOf(" ") > 0 && LABEL_LINE.test(e);
}

/** A unified diff's file and hunk headers. */
const DIFF_HEAD = /^(?:diff --git \S|(?:---|\+\+\+) (?:a\/|b\/|\/dev\/null)|@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@)/;
/** Log tools' trailer when a container's stream ends (`stream closed`, `stream closed EOF for ns/pod (container)`). */
const STREAM_CLOSED = /^stream closed(?: EOF for \S+ \([\w.-]+\))?\s*$/;

/** Elision marks (optionally indented). */
const ELISION =
  /^\s*(?:\.{2,}|…+|\[\s*(?:\.{2,}|…|snip(?:ped)?|truncated|cut|omitted)\s*\]|\(\s*(?:\.{2,}|…|snip(?:ped)?|truncated)\s*\)|<\s*(?:snip(?:ped)?|\.{2,}|…)\s*>|(?:\.{2,}|…) *\(?\d+ (?:more )?(?:lines?|entries|rows)(?: \w+)?\)?|[[(]\s*\d+ (?:more |similar |duplicate |identical |repeated )?(?:lines?|entries|rows|messages)(?: \w+)?\s*[\])])\s*$/i;
/** A horizontal rule (4 or more `-`, `=`, `_`, `*`, `#`). */
const RULE = /^\s*(?:-{4,}|={4,}|_{4,}|\*{4,})\s*$/;
/** `systemctl status` unit line: state glyph, unit, ` - ` description. */
const STATUS_HEAD = /^[●○×↻*] \S+ - /;

/** Furniture blocks a line may open (see the module comment). */
const enum Block {
  None = 0,
  Status = 1,
  Banner = 2,
  Table = 3,
}

/** What block a furniture line opens. */
function opens(line: string): Block {
  const c = line.charCodeAt(0);
  if (c === 0x25cf || c === 0x25cb || c === 0xd7 || c === 0x21bb || c === 42) return STATUS_HEAD.test(line) ? Block.Status : Block.None;
  if (RULE.test(line)) return Block.Banner;
  if (TABLE_HEAD.test(line)) return Block.Table;
  return Block.None;
}

const BANNER_KEY = /^[A-Za-z][\w .()/-]{0,40}:(?:\s*$|\s+\S)/;
const TABLE_ROW = /^\S.*?\S {2,}\S.*?\S? {2,}\S/;

/** Is `line` (not blank) part of an open block? */
function inBlock(line: string, block: Block): boolean {
  const c = line.charCodeAt(0);
  const indented = c === 32 || c === 9;
  switch (block) {
    case Block.Status:
      return indented;
    case Block.Banner:
      return indented || BANNER_KEY.test(line) || RULE.test(line);
    case Block.Table:
      return !indented && TABLE_ROW.test(line);
    default:
      return false;
  }
}

/**
 * Is `line` a paste banner (prompt + command, comment, fence, grep separator, one-line furniture:
 * see the module comment)? First-character dispatch: a log record's first characters (a digit,
 * a month, a level letter) cost one or two anchored regexes at most.
 */
export function isPasteBanner(line: string): boolean {
  const c = line.charCodeAt(0);
  // # $ % [ / ` - ~ and letters/digits (user@host, PS C:\>, sh-5.1#) and the two prompt glyphs
  if (c === 35 || c === 47 || c === 96 || c === 126) return NOTE.test(line) || PROMPT.test(line) || (c === 96 && QUOTE_TAIL.test(line));
  if (c === 45 || c === 61 || c === 95)
    return NOTE.test(line) || RULE.test(line) || PROMPT.test(line) || (c === 45 && DIFF_HEAD.test(line)) || (c === 61 && SECTION_HEAD.test(line));
  if (c === 36 || c === 37 || c === 0x276f || c === 0x279c) return PROMPT.test(line);
  if (c === 91) return PROMPT.test(line) || ELISION.test(line) || LINK_LINE.test(line);
  if (c === 34 || c === 39) return QUOTE_TAIL.test(line);
  if (c === 43) return DIFF_HEAD.test(line) || XTRACE.test(line);
  if (c === 64) return DIFF_HEAD.test(line);
  if (c === 46 || c === 0x2026 || c === 40 || c === 60 || c === 32 || c === 9) {
    if (c === 32 || c === 9) {
      const t = line.trimStart().charCodeAt(0);
      if (t === 34 || t === 39 || t === 96) return QUOTE_TAIL.test(line);
      if (t !== 46 && t !== 0x2026 && t !== 91 && t !== 40 && t !== 60 && t !== 45 && t !== 61) return false;
      return ELISION.test(line) || RULE.test(line) || (t === 60 && HTML_TAG.test(line));
    }
    // a conda environment before the prompt: `(base) user@host:~$ cmd`
    return ELISION.test(line) || (c === 60 && (HTML_TAG.test(line) || LINK_LINE.test(line))) || (c === 40 && PROMPT.test(line));
  }
  if (c === 0x25cf || c === 0x25cb || c === 0xd7 || c === 0x21bb || c === 42)
    return STATUS_HEAD.test(line) || RULE.test(line) || (c === 42 && MINIKUBE.test(line));
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95) {
    // user@host:… needs an @ early on; PS / C:\ / sh-N# need their letters
    const at = line.indexOf("@");
    if (at > 0 && at < 64 && PROMPT.test(line)) return true;
    // SUSE's `host:~ # cmd`
    const hash = line.indexOf(" # ");
    if (hash > 0 && hash < 64 && PROMPT.test(line)) return true;
    if ((c === 80 || c === 98 || c === 115 || c === 122 || line.charCodeAt(1) === 58) && PROMPT.test(line)) return true;
    if (c >= 48 && c <= 57) return false;
    if (line.length >= 400) return false;
    if (COMMAND.test(line) || NOTICE.test(line) || TABLE_HEAD.test(line) || CHAT_AUTHOR.test(line)) return true;
    return (c === 104 && LINK_LINE.test(line)) || (c === 115 && STREAM_CLOSED.test(line));
  }
  return false;
}

/**
 * Paste furniture over a file's lines: single-line paste banners (`isPasteBanner`) and the blocks
 * they open (`systemctl status`, a rule-delimited version banner, a table of a node tool). A
 * block goes on only over adjacent lines (`i` is the line's 0-based index): a blank line, or a
 * line that no test was asked about (a record the format read), ends it.
 */
export class Furniture {
  private block: Block = Block.None;
  private last = -2;

  /** Is `line` (not blank, index `i`) paste furniture? */
  test(line: string, i: number): boolean {
    if (this.block !== Block.None && i === this.last + 1 && inBlock(line, this.block)) {
      this.last = i;
      if (this.block === Block.Banner && RULE.test(line)) this.block = Block.None;
      return true;
    }
    if (!isPasteBanner(line)) {
      this.block = Block.None;
      return false;
    }
    this.block = opens(line);
    this.last = i;
    return true;
  }

  /** Is `line` (index `i`) a line of a block opened just before it? (No single-line test.) */
  continues(line: string, i: number): boolean {
    if (this.block === Block.None || i !== this.last + 1 || !inBlock(line, this.block)) return false;
    this.last = i;
    if (this.block === Block.Banner && RULE.test(line)) this.block = Block.None;
    return true;
  }
}

/**
 * Width at which a terminal hard-wrapped `lines`, or 0: the length (at least 80) most lines share,
 * two at least, the greater on a tie (a wrapped line fills the screen; a few lines padded or pasted
 * past it may be longer, unwrapped lines are shorter). Looks at the first `max` lines.
 */
export function detectWrapWidth(lines: readonly string[], max = 5000): number {
  const n = Math.min(lines.length, max);
  const byLen = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const len = lines[i].length;
    if (len >= 80) byLen.set(len, (byLen.get(len) ?? 0) + 1);
  }
  let w = 0;
  let most = 1;
  for (const [len, count] of byLen) if (count > most || (count === most && count >= 2 && len > w)) [w, most] = [len, count];
  return w;
}

/** Shortest line (for wrap width `w`) whose next piece may be a wrapped tail: a line broken at a blank falls a little short of the width. */
export function wrapMinLength(w: number): number {
  return w - Math.max(8, Math.floor(w / 10));
}

/** Shortest line whose cut inside a word marks a wrap when no width is common to the file's lines. */
const LONE_WRAP = 200;

/** The line starts with a time or level a log record starts with (a tail never does). */
export const RECORD_START = /^(?:\d{4}-\d\d-\d\d|[A-Z][a-z]{2} [ \d]\d |\d\d:\d\d:\d\d|[IWEF]\d{4} \d\d:|\[?\s*\d+\.\d+\]|time=|level=|[A-Z]{4}\[\d{4}\])/;

/**
 * Is `line` the wrapped tail of `prev`, for a terminal width `w` (0: none found)? `prev` fills the
 * width (or runs past it, pasted or padded), or falls short of it by a little (`wrapMinLength`)
 * where a word was cut (a letter, digit or quote on both sides of the break); a line padded with
 * blanks up to less than the width was not wrapped. Without a width, `prev` of 200+ characters
 * cut inside a word. The tail starts with no blank and no time or level.
 * The caller checks that the file's format refused `line`.
 */
export function isWrapTail(line: string, prev: string, w: number): boolean {
  const pl = prev.length;
  const c = line.charCodeAt(0);
  if (c === 32 || c === 9 || line.length === 0) return false;
  const last = prev.charCodeAt(pl - 1);
  if (w <= 0 || pl < wrapMinLength(w)) {
    // no common width: a long line cut inside a word
    return pl >= LONE_WRAP && isWordChar(last) && isWordChar(c) && !RECORD_START.test(line);
  }
  if (pl < w) {
    if (!isWordChar(last) || !isWordChar(c)) return false;
  } else if (pl > w && (last === 32 || last === 9)) return false;
  return !RECORD_START.test(line);
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 34 || c === 39 || c === 95;
}

/** A decoration every non-blank line of a paste carries (see the module comment). */
export type Decoration = { kind: "indent"; prefix: string } | { kind: "quote" };

/**
 * The decoration common to the non-blank lines of `lines`, or null: the leading blanks all of
 * them share (a Markdown code block), or `>` quoting on the first non-blank line and at least 4 in
 * 5 of them. Stops at the first line without one (a file of log records costs one line).
 */
export function detectDecoration(lines: readonly string[]): Decoration | null {
  let i = 0;
  while (i < lines.length && lines[i].trim().length === 0) i++;
  if (i >= lines.length) return null;
  const first = lines[i];
  const c = first.charCodeAt(0);
  if (c === 62) {
    let quoted = 0;
    let nonBlank = 0;
    for (let k = i; k < lines.length; k++) {
      const l = lines[k];
      if (l.trim().length === 0) continue;
      nonBlank++;
      if (l.charCodeAt(0) === 62) quoted++;
      else if (nonBlank >= 10 && quoted * 5 < nonBlank * 4) return null;
    }
    return quoted * 5 >= nonBlank * 4 ? { kind: "quote" } : null;
  }
  if (c !== 32 && c !== 9) return null;
  let prefix = /^[ \t]*/.exec(first)![0];
  for (let k = i + 1; k < lines.length && prefix.length > 0; k++) {
    const l = lines[k];
    let j = 0;
    while (j < prefix.length && j < l.length && l.charCodeAt(j) === prefix.charCodeAt(j)) j++;
    if (j < prefix.length) {
      if (l.trim().length === 0) continue;
      prefix = prefix.slice(0, j);
    }
  }
  return prefix.length > 0 ? { kind: "indent", prefix } : null;
}

/** `lines` without `deco` (a quote's `>` and one blank after it; the common indentation). */
export function stripDecoration(lines: readonly string[], deco: Decoration): string[] {
  if (deco.kind === "indent") {
    const n = deco.prefix.length;
    return lines.map((l) => (l.startsWith(deco.prefix) ? l.slice(n) : l.trim().length === 0 ? "" : l));
  }
  return lines.map((l) => (l.charCodeAt(0) === 62 ? l.slice(l.charCodeAt(1) === 32 ? 2 : 1) : l));
}

/**
 * Marks of a log line that a sentence typed around a paste never holds: `key=value`, brackets,
 * braces, angle brackets, a bar, a tab, a clock (`9:58`), a Go `file.go:N`, a URL, columns (3+
 * blanks between cells), or a level word first (`ERROR`, `info:`).
 */
const LOG_MARK =
  /[=[\]{}<>|\t]|\d:\d\d|\.go:\d|:\/\/|\S {3,}\S|^\s*(?:trace|debug|info|warn(?:ing)?|err(?:or)?|fatal|crit(?:ical)?|panic|notice|alert|emerg)\b/i;
/** The first line of a stack trace or a Go panic (a record's continuation, never prose). */
const STACK_START = /^\s*(?:Traceback \(|goroutine \d|Caused by:|Exception in )/;
/** A Markdown list marker before a sentence. */
const LIST_MARK = /^\s*(?:[-*+]|\d{1,2}[.)])\s+/;
/** A word of prose: letters (`'`, `’`, `-` inside), in quotes, brackets or backticks, with closing punctuation. */
const PROSE_WORD = /^[("'`“]*[A-Za-z]+(?:['’-][A-Za-z]+)*[)"'`”]*[,.:;?!…]*$/;
/** Han, kana and Hangul: the scripts of the Chinese, Japanese and Korean reports. */
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g;
/** A one-word label (`kubelet:`, `Logs:`). */
const ONE_WORD_LABEL = /^[A-Za-z][\w.-]{0,30}:$/;

/**
 * Is `line` prose a reviewer typed around a paste (`When I describe the Pod I get:`, `Here is the
 * output`, `` The full error shown by `kubectl describe`: ``, `kubelet:`)? Three or more words of
 * which 7 in 10 are plain words (letters, quoted or in backticks, closing punctuation; the first
 * one plain), ending with `:`, `.`, `?` or `!` or starting with a capital; or two words ending
 * with `:` or `?`; or one word ending with `:`; or a line half of whose characters or more are
 * Chinese, Japanese or Korean (two at least). Never a line with
 * a mark of a log line (`LOG_MARK`), an error chain (`a: b: c`) or a stack trace's first line.
 * Asked only about lines the file's format (and every other format) refused.
 */
export function isProse(line: string): boolean {
  const t = line.trim();
  const n = t.length;
  if (n < 4 || n > 600 || LOG_MARK.test(t) || STACK_START.test(t)) return false;
  const body = t.replace(LIST_MARK, "");
  // a sentence in Chinese, Japanese or Korean (`升级内核之后还是一样。pod 的信息：`): half its characters or more
  const cjk = body.match(CJK)?.length ?? 0;
  if (cjk >= 2 && cjk * 2 >= body.replace(/\s+/g, "").length) return true;
  const words = body.split(/\s+/);
  if (words.length === 1) return ONE_WORD_LABEL.test(body);
  const last = t.charCodeAt(n - 1);
  const ends = last === 58 || last === 63 || last === 46 || last === 33;
  if (words.length === 2 && last !== 58 && last !== 63) return false;
  if (!PROSE_WORD.test(words[0])) return false;
  // a sentence ends with `:`, `.`, `?` or `!`, or starts with a capital (`Here is the output`)
  if (!ends && !/^[("'`“]*[A-Z]/.test(words[0])) return false;
  let plain = 0;
  for (const w of words) if (PROSE_WORD.test(w)) plain++;
  if (plain * 10 < words.length * 7) return false;
  // an error chain (`failed to x: dial tcp: i/o timeout`) is a log message
  let colons = 0;
  for (let i = t.indexOf(": "); i >= 0; i = t.indexOf(": ", i + 2)) colons++;
  return colons < 2;
}

/** Length of the first word of `line` (up to a blank). */
function firstWordLength(line: string): number {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32 || c === 9) return i;
  }
  return line.length;
}

/**
 * Width of a word-wrapped paste, or 0. An editor or issue form that wraps at word boundaries
 * breaks a long line at a blank (kept at the line's end) or after a `-`, where the next word
 * would not fit: the lines vary in length, end with a blank or `-`, and each one's length plus
 * the first word of the next runs past the width. The width is the longest line that ends so;
 * it is taken when at least 60 wide and two breaks or more, most of those that end so, are of
 * that kind. Looks at the first `max` lines.
 */
export function detectWordWrap(lines: readonly string[], max = 5000): number {
  const n = Math.min(lines.length, max);
  const breaks: Array<[number, number]> = [];
  let w = 0;
  for (let i = 1; i < n; i++) {
    const prev = lines[i - 1];
    const l = lines[i];
    const last = prev.charCodeAt(prev.length - 1);
    if ((last !== 32 && last !== 45) || l.length === 0 || l.charCodeAt(0) === 32 || l.charCodeAt(0) === 9 || prev.trim().length === 0) continue;
    breaks.push([prev.length, firstWordLength(l)]);
    if (prev.length > w) w = prev.length;
  }
  if (w < 60) return 0;
  let fit = 0;
  for (const [len, word] of breaks) if (len + word > w) fit++;
  return fit >= 2 && fit * 3 >= breaks.length * 2 ? w : 0;
}

/**
 * Is `line` a piece a word wrap at width `w` (`detectWordWrap`) broke off `prev`? `prev` ends with
 * a blank or `-`, the first word of `line` would not have fit after it, and `line` starts with no
 * blank and no time or level. The caller checks that the file's format refused `line`.
 */
export function isWordWrapTail(line: string, prev: string, w: number): boolean {
  if (w <= 0 || line.length === 0) return false;
  const c = line.charCodeAt(0);
  if (c === 32 || c === 9) return false;
  const last = prev.charCodeAt(prev.length - 1);
  if (last !== 32 && last !== 45) return false;
  return prev.length + firstWordLength(line) > w && !RECORD_START.test(line);
}
