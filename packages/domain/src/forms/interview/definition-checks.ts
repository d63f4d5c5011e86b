// The write-side checks of an interview definition: the cross-references the schema cannot state
// (ids, modules, validation items) and the settings that could not act (themes, background URLs,
// custom answers), run on every create and update. Kept apart from definition.ts, which the checks'
// own modules import, so the module graph has no cycle; stored definitions are read without them.
import type { Result } from "effect"
import type { Issue } from "../../kernel/errors.js"
import { strictDecoder } from "../../kernel/issues.js"
import { InvalidDefinition } from "../errors.js"
import { customAnswerIssues } from "./custom-answers.js"
import { InterviewDefinition } from "./definition.js"
import { experienceIssues } from "./experience.js"

const duplicateIssues = (
  items: ReadonlyArray<{ readonly id: string }>,
  path: string
): ReadonlyArray<Issue> => {
  const seen = new Set<string>()
  return items.flatMap((item, i) => {
    const dup = seen.has(item.id)
    seen.add(item.id)
    return dup ? [{ path: [path, i, "id"], rule: "duplicateId" }] : []
  })
}

/** Cross-references inside an interview definition. */
export const interviewSemanticIssues = (def: InterviewDefinition): ReadonlyArray<Issue> => {
  const out: Array<Issue> = []
  const modules = def.modules ?? []
  const moduleIds = new Set(modules.map((m) => m.id))
  const fieldIds = new Set(def.fields.map((f) => f.id))
  out.push(
    ...duplicateIssues(modules, "modules"),
    ...duplicateIssues(def.fields, "fields"),
    ...duplicateIssues(def.goals, "goals")
  )
  out.push(
    ...duplicateIssues(def.codebook?.codes ?? [], "codebook.codes").map((i) => ({
      ...i,
      path: ["codebook", "codes", ...i.path.slice(1)]
    }))
  )
  def.fields.forEach((f, i) => {
    if (f.moduleId !== undefined && !moduleIds.has(f.moduleId))
      out.push({ path: ["fields", i, "moduleId"], rule: "danglingReference" })
  })
  def.goals.forEach((g, i) => {
    if (g.moduleId !== undefined && !moduleIds.has(g.moduleId))
      out.push({ path: ["goals", i, "moduleId"], rule: "danglingReference" })
  })
  def.validation?.fieldIds.forEach((id, i) => {
    if (!fieldIds.has(id)) out.push({ path: ["validation", "fieldIds", i], rule: "danglingReference" })
    else if (def.validation?.fieldIds.indexOf(id) !== i)
      out.push({ path: ["validation", "fieldIds", i], rule: "duplicateId" })
  })
  // Enabled validation with nothing to draw from would be accepted and never act.
  if (def.validation?.enabled === true && def.validation.fieldIds.length === 0)
    out.push({ path: ["validation", "fieldIds"], rule: "required" })
  if (!def.locales.supported.includes(def.locales.default))
    out.push({ path: ["locales", "default"], rule: "notSupported" })
  out.push(...experienceIssues(def))
  out.push(...customAnswerIssues(def))
  return out
}

export const decodeInterviewDefinition: (
  input: unknown
) => Result.Result<InterviewDefinition, InvalidDefinition> = strictDecoder(
  InterviewDefinition,
  (issues) => new InvalidDefinition({ kind: "interview", issues }),
  interviewSemanticIssues
)
