import { describe, expect, it } from 'vitest';
import { createConcurrencyGates } from './concurrency.js';

const gatesOf = (waitMs = 1000) =>
  createConcurrencyGates({
    export: { perClient: 2 },
    explorer: { perClient: 2, total: 4 },
    filing: { perClient: 2, total: 2, waitMs },
  });

/** Whether `entered` has been admitted once pending work has run. */
async function admitted(entered: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('waiting');
  return (await Promise.race([entered, new Promise((resolve) => setImmediate(resolve, marker))])) !== marker;
}

describe('filing slots for work that runs alone (a large message)', () => {
  it('waits until the running filings end, runs with no other, and lets the waiting ones in together after it', async () => {
    const gates = gatesOf();
    const small = await gates.enter('filing', 'ann');
    const large = gates.enter('filing', 'bob', { alone: true });
    expect(await admitted(large)).toBe(false);
    // A later small filing, which would fit in the free slot, does not overtake the large one.
    const later = gates.enter('filing', 'cat');
    expect(await admitted(later)).toBe(false);
    small();
    expect(await admitted(large)).toBe(true);
    expect(await admitted(later)).toBe(false);
    const alsoLater = gates.enter('filing', 'dan');
    (await large)();
    expect(await admitted(later)).toBe(true);
    expect(await admitted(alsoLater)).toBe(true);
  });

  it('gives up on a large filing after the wait with 503, and then admits what queued behind it', async () => {
    const gates = gatesOf(100);
    const running = [await gates.enter('filing', 'ann'), await gates.enter('filing', 'bob')];
    const large = gates.enter('filing', 'cat', { alone: true });
    const small = gates.enter('filing', 'dan');
    running[0]!();
    // A slot is free, but the large filing waits for both and the small one queues behind it.
    expect(await admitted(small)).toBe(false);
    await expect(large).rejects.toMatchObject({
      code: 'service_unavailable',
      options: { headers: { 'Retry-After': '1' } },
    });
    expect(await admitted(small)).toBe(true);
  });
});
