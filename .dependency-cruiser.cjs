/**
 * Import rules checked by scripts/import-rules.test.ts (`npx depcruise lib app components scripts
 * tests e2e`): no module may reach itself through its imports, type-only imports included; the
 * pure core (lib/parse, lib/detect, lib/model, lib/normalise, lib/view) reads no database, no
 * files, no network, no query and no pipeline module; lib/ imports no page or component. The
 * layers: docs/architecture.md.
 */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle: move the shared model into a module both sides import.",
      from: {},
      to: { circular: true },
    },
    {
      name: "pure-core",
      severity: "error",
      comment: "lib/parse, lib/detect, lib/model, lib/normalise, lib/view and lib/patterns are pure: text and values in, values out.",
      from: { path: "^lib/(parse|detect|model|normalise|view|patterns)/", pathNot: "\\.test\\.ts$|/test-support\\.ts$" },
      to: {
        path: "^lib/(db|ingest|queries|http|incidents|export|annotations|auth|search|sample|causes)/|^(app|components)/|^node:?(fs|child_process|net|http|https|worker_threads)$|^(fs|child_process|net|http|https|worker_threads)$",
      },
    },
    {
      name: "lib-below-ui",
      severity: "error",
      comment: "lib/ is below the pages: it imports no route, page or component.",
      from: { path: "^lib/", pathNot: "\\.test\\.ts$" },
      to: { path: "^(app|components)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next[^/]*|lib/db/generated)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs", ".json"] },
  },
};
