// Benchmark dispatcher: `npm run bench -- <name>` runs bench/<name>.ts, whose `run()` prints a
// table and writes JSON under bench/results/.
import { readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"

const here = fileURLToPath(new URL(".", import.meta.url))
const available = readdirSync(here)
  .filter((f) => f.endsWith(".ts") && f !== "run.ts" && !f.startsWith("_"))
  .map((f) => f.replace(/\.ts$/, ""))

const names = process.argv.slice(2)
if (names.length === 0 || names.some((n) => !available.includes(n))) {
  process.stderr.write(`usage: npm run bench -- <${available.join("|")}> [...]\n`)
  process.exit(2)
}

for (const name of names) {
  const mod = (await import(`./${name}.ts`)) as { run: () => Promise<void> }
  process.stdout.write(`\n== bench ${name} ==\n`)
  await mod.run()
}
