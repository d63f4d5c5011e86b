// The services a tenant's API keys are issued for. A key opens exactly one of them: the forms API
// refuses a sharing key as it refuses an unknown one, and the other way round.
import { Schema } from "effect"

export const SERVICE_NAMES = ["forms", "sharing"] as const

export const ServiceName = Schema.Literals(SERVICE_NAMES)
export type ServiceName = typeof ServiceName.Type

export const isServiceName = (value: string): value is ServiceName =>
  (SERVICE_NAMES as ReadonlyArray<string>).includes(value)
