import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { z } from 'zod';
import { IdempotencyHeaders } from '../../shared/commands.js';
import type { Caller } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import type { Tx } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { defineRoute, Reply, type ResponseSpec, type Route, type RouteSpec } from '../http/route.js';
import { emitEvent } from '../outbox/queries.js';
import { completeAttempt, deleteAttempt, findRecord, insertInProgress, purgeExpiredRecords } from './queries.js';

/**
 * The command pipeline: every POST that changes state is declared with `defineCommand` and so becomes safe to
 * retry (Stripe / IETF Idempotency-Key semantics):
 * - the `idempotency-key` header (1–255 characters) is required; keys are scoped to the caller;
 * - the first attempt claims the key (the primary key of `idempotency_records` decides races), runs the handler
 *   in a transaction and stores its response in that same transaction, so "applied" and "recorded" are one fact;
 * - the same key with the same request replays the stored status and bytes with `Idempotent-Replayed: true`;
 *   another request under the key → 422 `idempotency_key_mismatch`; while the first attempt runs → 409
 *   `idempotency_key_in_progress`;
 * - an attempt that fails (any error: nothing was applied, its transaction rolled back) releases the key, so a
 *   5xx never poisons it and a corrected retry may reuse it;
 * - responses are kept for 24 hours (by `app.clock`), then purged.
 */

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** How long an attempt may hold a key; a crashed attempt frees its key after this. */
const DEFAULT_LEASE_MS = 60 * 1000;
const PURGE_INTERVAL_MS = 60 * 1000;
const PURGE_BATCH = 500;

export interface CommandContext<P, B> {
  req: Request;
  app: AppContext;
  caller: Caller;
  params: P;
  body: B;
  /** The command's transaction: write only through it (the stored response commits with it). */
  tx: Tx;
}

type AnyObject = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

export interface CommandSpec<P extends AnyObject, B extends z.ZodType>
  extends Omit<RouteSpec<P, AnyObject, B>, 'method' | 'handler' | 'headers' | 'query' | 'before' | 'streams'> {
  /** Longest time one attempt may take before another may claim the key. */
  leaseMs?: number;
  handler: (ctx: CommandContext<z.output<P>, z.output<B>>) => Promise<unknown>;
}

const replayHeader = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored response of an earlier request with the same key',
    schema: { type: 'string' as const, enum: ['true'] },
  },
};

export function defineCommand<P extends AnyObject, B extends z.ZodType>(spec: CommandSpec<P, B>): Route {
  const { leaseMs = DEFAULT_LEASE_MS, handler, ...route } = spec;
  const status = Number(Object.keys(route.responses)[0]);
  const responses = Object.fromEntries(
    Object.entries(route.responses).map(([code, response]): [string, ResponseSpec] => [
      code,
      { ...response, headers: { ...response.headers, ...replayHeader } },
    ]),
  );
  return defineRoute<P, AnyObject, B>({
    ...route,
    method: 'post',
    headers: IdempotencyHeaders,
    responses,
    errors: {
      ...route.errors,
      409: 'A request with this idempotency-key is still in progress (`idempotency_key_in_progress`); retry later',
      422: 'This idempotency-key was used for a different request (`idempotency_key_mismatch`)',
    },
    handler: async ({ req, app, caller, params, body }) => {
      const key = { callerKey: caller.callerKey, idempotencyKey: String(req.headers['idempotency-key']) };
      const requestHash = hashRequest(route.operationId, params, req.body);
      // Organization routes keep their organization with the record (per-tenant housekeeping).
      const organizationId = (params as { orgId?: string }).orgId ?? null;
      const claim = await claimKey(app, key, requestHash, organizationId, leaseMs);
      if (claim.kind === 'replay') {
        return new Reply(claim.status, claim.body, { ...claim.headers, 'Idempotent-Replayed': 'true' });
      }
      let stored: Buffer;
      try {
        stored = await app.db.transaction(async (tx) => {
          const result = await handler({ req, app, caller, params, body, tx });
          // Pushed to the organization's webhooks when the command belongs to one (`:orgId`).
          if (organizationId) {
            const at = app.clock.now();
            await emitEvent(tx, {
              organizationId,
              projectId: (params as { projectId?: string }).projectId,
              type: 'command.applied',
              data: { command: route.operationId, organizationId, params, result, appliedAt: at.toISOString() },
              at,
            });
          }
          const bytes = Buffer.from(JSON.stringify(result));
          const completed = await completeAttempt(tx, key, {
            startedAt: claim.startedAt,
            status,
            headers: jsonHeaders,
            body: bytes,
            keepUntil: new Date(app.clock.now().getTime() + IDEMPOTENCY_RETENTION_MS),
          });
          // Our lease lapsed and another attempt took the key: roll back rather than apply twice.
          if (!completed) throw inProgress();
          return bytes;
        });
      } catch (err) {
        // Nothing was applied (the transaction rolled back): free the key for a retry. Should this fail too,
        // the lease runs out instead.
        await deleteAttempt(app.db, key, claim.startedAt).catch((cleanupErr) =>
          app.log.warn({ err: cleanupErr }, 'releasing an idempotency key failed'),
        );
        throw err;
      }
      schedulePurge(app);
      // The stored bytes themselves: a replay answers exactly these.
      return new Reply(status, stored, jsonHeaders);
    },
  });
}

const jsonHeaders = { 'content-type': 'application/json; charset=utf-8' };

const inProgress = () =>
  new ApiError('idempotency_key_in_progress', 'A request with this idempotency-key is still in progress', {
    headers: { 'Retry-After': '1' },
  });

type Claim =
  | { kind: 'owner'; startedAt: Date }
  | { kind: 'replay'; status: number; headers: Record<string, string>; body: Buffer };

async function claimKey(
  app: AppContext,
  key: { callerKey: string; idempotencyKey: string },
  requestHash: string,
  organizationId: string | null,
  leaseMs: number,
): Promise<Claim> {
  // Two rounds: a record that has expired (kept past retention, or a lapsed lease) is removed, then claimed.
  for (let round = 0; round < 2; round++) {
    const now = app.clock.now();
    const leaseUntil = new Date(now.getTime() + leaseMs);
    if (await insertInProgress(app.db, { ...key, organizationId, requestHash, startedAt: now, leaseUntil })) {
      return { kind: 'owner', startedAt: now };
    }
    const record = await findRecord(app.db, key);
    if (!record) continue;
    if (record.expiresAt.getTime() <= now.getTime()) {
      await deleteAttempt(app.db, key, record.createdAt);
      continue;
    }
    if (record.requestHash !== requestHash) {
      throw new ApiError('idempotency_key_mismatch', 'This idempotency-key was already used for a different request');
    }
    if (record.state === 'in_progress' || record.responseStatus === null || record.responseBody === null) {
      throw inProgress();
    }
    return {
      kind: 'replay',
      status: record.responseStatus,
      headers: record.responseHeaders ?? jsonHeaders,
      body: record.responseBody,
    };
  }
  throw inProgress();
}

/** The request's fingerprint: the command, its path parameters and its body with keys in a canonical order. */
function hashRequest(operationId: string, params: unknown, body: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ operationId, params, body: body ?? {} }))
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

declare module '../context.js' {
  interface AppCaches {
    /** When this instance last purged expired idempotency records (epoch ms). */
    idempotencyPurge: { lastAt?: number };
  }
}

/** Expired records are ignored when read; this removes them, at most once a minute per instance, off the
 *  request path. */
function schedulePurge(app: AppContext): void {
  const now = app.clock.now();
  const purge = app.caches.idempotencyPurge;
  if (purge.lastAt !== undefined && now.getTime() - purge.lastAt < PURGE_INTERVAL_MS) return;
  purge.lastAt = now.getTime();
  purgeExpiredRecords(app.db, now, PURGE_BATCH).catch((err) =>
    app.log.warn({ err }, 'purging expired idempotency records failed'),
  );
}
