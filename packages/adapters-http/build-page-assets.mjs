// Builds the public form page's scripts and stylesheet into page-assets/ with esbuild: two minified
// ES modules (the form's client code plus the domain's browser entry, and the interview chat's) and
// one minified stylesheet. Run by `npm run build` and before the tests; the server reads the files at
// start-up.
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const here = fileURLToPath(new URL(".", import.meta.url))
const client = `${here}src/forms/page/client/`
const out = `${here}page-assets/`

export const buildPageAssets = async () => {
  mkdirSync(out, { recursive: true })
  await Promise.all([
    ...[
      ["main.ts", "form.js"],
      ["interview.ts", "interview.js"]
    ].map(([entry, file]) =>
      build({
        entryPoints: [`${client}${entry}`],
        outfile: `${out}${file}`,
        bundle: true,
        minify: true,
        format: "esm",
        target: ["es2022", "chrome100", "firefox100", "safari15"],
        alias: { "@folio/domain/browser": `${here}../domain/src/forms/browser.ts` },
        legalComments: "none",
        logLevel: "warning"
      })
    ),
    build({
      entryPoints: [`${client}form.css`],
      outfile: `${out}form.css`,
      bundle: true,
      minify: true,
      target: ["chrome100", "firefox100", "safari15"],
      logLevel: "warning"
    })
  ])
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPageAssets()
