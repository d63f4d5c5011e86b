// The setup of a sharing suite over real HTTP: `sharingSuite(target, keys)` starts the app on the
// target before the enclosing describe block (a workspace and key per name, with its scopes) and
// stops it after. It answers the app and the keys at once, as handles that reach what beforeAll
// started, so a suite declares them in one line and uses them in its helpers and tests.
import type { AppConfig } from "@folio/app"
import { afterAll, beforeAll } from "vitest"
import type { RunningApp } from "./app.js"
import { newWorkspaceKey } from "./keys.js"
import { type SharingTarget, startSharingApp } from "./sharing-app.js"

/** A sharing key every route accepts. */
export const ALL_SHARING_SCOPES: ReadonlyArray<string> = ["read", "write", "delete"]

export interface SharingKey {
  readonly key: string
  readonly workspaceId: string
  readonly keyId: string
}

/** A stand-in for a value beforeAll makes: reading it earlier (at collection) throws, naming it. */
const handle = <T extends object>(name: string) => {
  let value: T | undefined
  const get = (): T => {
    if (value === undefined) throw new Error(`sharing suite: ${name} is read before beforeAll made it`)
    return value
  }
  const ref = new Proxy({} as T, {
    get: (_, prop) => {
      const target = get()
      const member = Reflect.get(target, prop, target)
      return typeof member === "function" ? member.bind(target) : member
    },
    has: (_, prop) => Reflect.has(get(), prop),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_, prop) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(get(), prop)
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true }
    }
  })
  return {
    ref,
    set: (v: T) => {
      value = v
    }
  }
}

/**
 * Starts the sharing app on `target` (with `config`, or what `config()` answers when beforeAll
 * runs) and makes one workspace and sharing key per entry of `keys`, in order.
 */
export const sharingSuite = <const K extends string>(
  target: SharingTarget,
  keys: Readonly<Record<K, ReadonlyArray<string>>>,
  config: Partial<AppConfig> | (() => Partial<AppConfig>) = {}
): { readonly app: RunningApp } & { readonly [N in K]: SharingKey } => {
  const app = handle<RunningApp>("app")
  const made = Object.fromEntries(
    Object.keys(keys).map((name) => [name, handle<SharingKey>(`key ${name}`)])
  ) as Record<K, ReturnType<typeof handle<SharingKey>>>
  let close: () => Promise<void> = async () => {}
  beforeAll(async () => {
    const started = await startSharingApp(target, typeof config === "function" ? config() : config)
    close = started.close
    app.set(started.app)
    for (const name of Object.keys(keys) as Array<K>)
      made[name].set(await newWorkspaceKey(started.app, keys[name], "sharing"))
  }, 60_000)
  afterAll(() => close())
  const handles = Object.fromEntries(
    Object.entries(made).map(([name, h]) => [name, (h as (typeof made)[K]).ref])
  )
  return { app: app.ref, ...handles } as { readonly app: RunningApp } & { readonly [N in K]: SharingKey }
}
