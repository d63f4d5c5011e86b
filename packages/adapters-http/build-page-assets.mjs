// Builds the public form page's and the owner console's scripts and stylesheets into page-assets/
// with esbuild: minified ES modules (the form's client code plus the domain's browser entry, the
// interview chat's, the console's with @simplewebauthn/browser) and minified stylesheets. Run by
// `npm run build` and before the tests; the server reads the files at start-up.
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const here = fileURLToPath(new URL(".", import.meta.url))
const client = `${here}src/forms/page/client/`
const consoleClient = `${here}src/console/client/`
const out = `${here}page-assets/`

export const buildPageAssets = async () => {
  mkdirSync(out, { recursive: true })
  await Promise.all([
    ...[
      [`${client}main.ts`, "form.js"],
      [`${client}interview.ts`, "interview.js"],
      [`${consoleClient}main.ts`, "console.js"]
    ].map(([entry, file]) =>
      build({
        entryPoints: [entry],
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
    ...[
      [`${client}form.css`, "form.css"],
      [`${consoleClient}console.css`, "console.css"]
    ].map(([entry, file]) =>
      build({
        entryPoints: [entry],
        outfile: `${out}${file}`,
        bundle: true,
        minify: true,
        target: ["chrome100", "firefox100", "safari15"],
        logLevel: "warning"
      })
    )
  ])
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPageAssets()
