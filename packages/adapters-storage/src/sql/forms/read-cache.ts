// Form reads kept in memory, for a database this process alone writes: the embedded one (PGlite),
// whose DATA_DIR lock keeps every other Folio process out and whose one session runs one statement
// at a time. There a read of a form needs nothing the process does not already know once it has
// read it, and each statement costs the main thread (~0.2-0.4 ms of PostgreSQL in WebAssembly for
// one form; decision 0029). On a PostgreSQL server other instances write too, so nothing is kept.
import { Context } from "effect"

/** Whether this process is the only writer of its database (set by the embedded storage layer). */
export const SoleWriter = Context.Reference<boolean>("@folio/adapters-storage/SoleWriter", {
  defaultValue: () => false
})

/** A frozen copy-free view: callers share one object, so none may change it (strict mode throws). */
const deepFreeze = <A>(value: A): A => {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

/**
 * Values by key, up to a budget of their JSON size, the oldest dropped first. A write drops its key
 * and moves the generation on; a read made while a write happened is not kept (`put` with the
 * generation taken before the read), so a read that raced a write never outlives it.
 */
export class ReadCache<A> {
  private readonly entries = new Map<string, { readonly value: A; readonly size: number }>()
  private bytes = 0
  /** Moves on at every drop. */
  generation = 0

  constructor(
    private readonly budgetBytes: number,
    private readonly sizeOf: (value: A) => number
  ) {}

  get(key: string): A | undefined {
    return this.entries.get(key)?.value
  }

  /** Keeps `value` if no write happened since `generation` was read, and it fits the budget. */
  put(key: string, value: A, generation: number): void {
    if (generation !== this.generation) return
    const size = this.sizeOf(value)
    if (size > this.budgetBytes / 8) return
    this.remove(key)
    this.entries.set(key, { value: deepFreeze(value), size })
    this.bytes += size
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.budgetBytes) break
      this.remove(oldest)
    }
  }

  drop(key: string): void {
    this.generation++
    this.remove(key)
  }

  private remove(key: string) {
    const entry = this.entries.get(key)
    if (entry === undefined) return
    this.entries.delete(key)
    this.bytes -= entry.size
  }
}
