// The order one respondent sees: shuffled or reversed choices (keeping the last `pinLast` in place)
// and random groups (shuffle, reverse, or a latin-square rotation by assignment number). Randomness
// comes in as a function, so the same seed replays the same order and tests are deterministic.
import type { FormDefinition } from "../definition/definition.js"

export interface PresentedOrder {
  readonly choices: Readonly<Record<string, ReadonlyArray<string>>>
  readonly groups: Readonly<Record<string, ReadonlyArray<string>>>
}

/** `randomInt(n)` returns an integer in 0..n-1. */
export type RandomInt = (n: number) => number

const shuffle = <A>(items: ReadonlyArray<A>, randomInt: RandomInt): Array<A> => {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1)
    const a = out[i] as A
    out[i] = out[j] as A
    out[j] = a
  }
  return out
}

const rotate = <A>(items: ReadonlyArray<A>, by: number): Array<A> => {
  if (items.length === 0) return []
  const k = ((by % items.length) + items.length) % items.length
  return [...items.slice(k), ...items.slice(0, k)]
}

export const presentationOrder = (
  definition: FormDefinition,
  randomInt: RandomInt,
  assignmentNumber: number
): PresentedOrder => {
  const choices: Record<string, ReadonlyArray<string>> = {}
  for (const block of definition.blocks) {
    if (
      block.type !== "multiple_choice" &&
      block.type !== "checkboxes" &&
      block.type !== "dropdown" &&
      block.type !== "ranking"
    )
      continue
    const randomize = block.options.randomize
    if (randomize === undefined) continue
    const ids = block.options.choices.map((c) => c.id)
    const pinned = Math.min(randomize.pinLast, ids.length)
    const movable = ids.slice(0, ids.length - pinned)
    const kept = ids.slice(ids.length - pinned)
    const moved = randomize.mode === "reverse" ? [...movable].reverse() : shuffle(movable, randomInt)
    choices[block.id] = [...moved, ...kept]
  }
  const groups: Record<string, ReadonlyArray<string>> = {}
  for (const group of definition.randomGroups ?? []) {
    groups[group.id] =
      group.mode === "reverse"
        ? [...group.blockIds].reverse()
        : group.mode === "latin_square"
          ? rotate(group.blockIds, assignmentNumber)
          : shuffle(group.blockIds, randomInt)
  }
  return { choices, groups }
}

/** Whether anything is randomized (the response's `presentation` is null otherwise). */
export const hasRandomization = (definition: FormDefinition): boolean =>
  (definition.randomGroups ?? []).length > 0 ||
  definition.blocks.some(
    (b) =>
      (b.type === "multiple_choice" ||
        b.type === "checkboxes" ||
        b.type === "dropdown" ||
        b.type === "ranking") &&
      b.options.randomize !== undefined
  )
