// VisitRecorder in memory: each hit the public routes record becomes a VisitRecord at once (visitor
// hashed under its day's key, country looked up when the header gave none, referrer host, UTM
// tags) and is merged with identical ones of its second (compaction); every second, and when the
// scope closes, the records are written with AnalyticsStore.append in slices, each one transaction
// with its rollups. A slice whose write fails is kept with the rest for the next flush. No address
// is kept: a hit is gone once it is a record.
import { createHmac, createSecretKey } from "node:crypto"
import {
  AnalyticsStore,
  addDays,
  dailyVisitorKey,
  dayStart,
  visitCompactor,
  dayOf,
  type VisitHit,
  type VisitRecord,
  VisitRecorder,
  visitRecordOf
} from "@folio/domain"
import { Clock, Effect, Layer, Schedule, Semaphore } from "effect"

export interface VisitBatcherOptions {
  /** The app's signing secret; the visitor hash's daily keys are derived from it. */
  readonly secret: string
  /** The country of an address when the trusted header named none (a GeoIP database). */
  readonly countryOf?: ((ip: string) => string | undefined) | undefined
  /** Visits kept while storage is down; past it the oldest are dropped (and logged). */
  readonly maxWaiting?: number | undefined
  /** Visits per write (one transaction each). */
  readonly sliceSize?: number | undefined
}

const HASH_MEMO = 10_000

/**
 * The domain's visitor hash (`visitorHasher`: HMAC-SHA-256 under the day's key, first 16 bytes in
 * hex) with node's native HMAC: the same bytes (a test checks it), a few times faster, and the
 * recorder hashes every new visitor.
 */
export const nativeVisitorHasher = (secret: string, day: string) => {
  // A KeyObject made once: handing createHmac raw bytes makes one per call, which cost more than
  // the hash itself.
  const key = createSecretKey(dailyVisitorKey(secret, day))
  return (ip: string, userAgent: string): string =>
    createHmac("sha256", key)
      .update(`${ip}\n${userAgent.slice(0, 512)}`)
      .digest()
      .subarray(0, 16)
      .toString("hex")
}
export const VisitBatcherLive = (options: VisitBatcherOptions) =>
  Layer.effect(
    VisitRecorder,
    Effect.gen(function* () {
      const store = yield* AnalyticsStore
      const maxWaiting = options.maxWaiting ?? 500_000
      const slice = options.sliceSize ?? 2000
      // This second's records, compacted as the hits arrive. The hits were kept raw for the flush
      // once, but a hit held for up to a second outlived two scavenges and was promoted (~250
      // bytes a redirect under load), which made a mark-compact of the whole heap every ~1.3 s
      // (decision 0029); made a record at once, a hit dies young, and the flush has no conversion
      // left to do. The work is the same, done on arrival instead of in the flush.
      let compactor = visitCompactor()
      // Records whose write failed, written first at the next flush.
      let failed: Array<VisitRecord> = []

      // The visitor hash of the day being recorded, with a memo of recent address/agent pairs (a
      // returning visitor, a crawler, a load test): hashing costs microseconds, a lookup less.
      let hashDay = ""
      let dayFrom = 0
      let dayTo = 0
      let hash: (ip: string, userAgent: string) => string = () => ""
      // By address, then user agent: no joined key to build and hash per visit (the address is the
      // connection's one string, whose hash the engine keeps).
      const memo = new Map<string, Map<string, string>>()
      let memoSize = 0
      const visitorOf = (hit: VisitHit) => {
        if (hit.at < dayFrom || hit.at >= dayTo) {
          const day = dayOf(hit.at)
          // Visits of the previous day may still arrive (just after midnight): no memo for them.
          if (day < hashDay) return nativeVisitorHasher(options.secret, day)(hit.ip, hit.userAgent)
          hashDay = day
          dayFrom = dayStart(day).getTime()
          dayTo = dayFrom + 86_400_000
          hash = nativeVisitorHasher(options.secret, day)
          memo.clear()
          memoSize = 0
        }
        let byAgent = memo.get(hit.ip)
        const known = byAgent?.get(hit.userAgent)
        if (known !== undefined) return known
        const h = hash(hit.ip, hit.userAgent)
        if (memoSize >= HASH_MEMO) {
          memo.clear()
          memoSize = 0
          byAgent = undefined
        }
        if (byAgent === undefined) {
          byAgent = new Map()
          memo.set(hit.ip, byAgent)
        }
        byAgent.set(hit.userAgent, h)
        memoSize++
        return h
      }
      const toRecord = (hit: VisitHit): VisitRecord => {
        let country = hit.country
        if (country === undefined && options.countryOf !== undefined) country = options.countryOf(hit.ip)
        return visitRecordOf(hit, visitorOf(hit), country)
      }

      const keep = (records: ReadonlyArray<VisitRecord>) => {
        failed = failed.concat(records)
        if (failed.length > maxWaiting) {
          const dropped = failed.length - maxWaiting
          failed = failed.slice(dropped)
          return Effect.logError(`${dropped} visits dropped: storage has refused them for too long`)
        }
        return Effect.void
      }

      // The second's records (failed ones first) are written in slices, each its own transaction.
      const flushOnce = Effect.gen(function* () {
        if (droppedHits > 0) {
          yield* Effect.logError(`${droppedHits} visits dropped: too many were waiting to be written`)
          droppedHits = 0
        }
        if (unreadableHits > 0) {
          yield* Effect.logError(`${unreadableHits} visits not recorded: they could not be made records`)
          unreadableHits = 0
        }
        const arrived = compactor.records()
        compactor = visitCompactor()
        const records = failed.length === 0 ? arrived : failed.concat(arrived)
        failed = []
        for (let i = 0; i < records.length; i += slice) {
          const ok = yield* write(records.slice(i, i + slice))
          if (!ok) return yield* keep(records.slice(i))
        }
      })
      const write = (records: ReadonlyArray<VisitRecord>) =>
        store.append(records).pipe(
          Effect.as(true),
          Effect.catch((e) =>
            Effect.as(Effect.logWarning("visits not written; kept for the next flush", e), false)
          )
        )

      // Finished days' visitor hashes are only dead weight: dropped once an hour (yesterday kept,
      // for its last visits written just after midnight).
      let prunedAt = 0
      const prune = Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        if (now - prunedAt < 3_600_000) return
        prunedAt = now
        yield* store
          .forgetVisitorsBefore(addDays(dayOf(now), -1))
          .pipe(Effect.catch((e) => Effect.logWarning("old visitor hashes not dropped", e)))
      })

      // One flush at a time (the loop's and shutdown's), each run to its end.
      const lock = Semaphore.makeUnsafe(1)
      const flush = Effect.uninterruptible(lock.withPermit(flushOnce))
      yield* Effect.forkScoped(Effect.repeat(Effect.andThen(flush, prune), Schedule.spaced("1 second")))
      yield* Effect.addFinalizer(() => flush)

      // A flush stuck on a hung store must not let memory grow without bound: past `maxWaiting`
      // records waiting, new hits are counted and dropped. A hit that cannot be made a record
      // (none is known to) is counted and logged, never thrown at the request that made it.
      let droppedHits = 0
      let unreadableHits = 0
      const recordNow = (hit: VisitHit): void => {
        if (compactor.size >= maxWaiting) {
          droppedHits++
          return
        }
        let record: VisitRecord
        try {
          record = toRecord(hit)
        } catch {
          unreadableHits++
          return
        }
        compactor.add(record)
      }

      return VisitRecorder.of({
        record: (hit) => Effect.sync(() => recordNow(hit)),
        recordNow,
        flush
      })
    })
  )
