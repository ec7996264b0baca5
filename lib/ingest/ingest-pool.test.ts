import { describe, expect, it } from "vitest";
import { threadExecArgv } from "./ingest-pool";

describe("threadExecArgv", () => {
  it("drops tsx's module hooks, both spellings, and keeps the other options", () => {
    const tsx = ["--require", "/app/node_modules/tsx/dist/preflight.cjs", "--import", "file:///app/node_modules/tsx/dist/loader.mjs"];
    expect(threadExecArgv([...tsx, "--cpu-prof", "--cpu-prof-dir=/tmp/prof"])).toEqual(["--cpu-prof", "--cpu-prof-dir=/tmp/prof"]);
    expect(threadExecArgv(["--import=tsx", "--loader", "ts-node/esm", "-r", "x.cjs", "--enable-source-maps"])).toEqual(["--enable-source-maps"]);
    expect(threadExecArgv([])).toEqual([]);
  });
});
