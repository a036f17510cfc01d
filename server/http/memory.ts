/**
 * Collects garbage at once where the process was started with `--expose-gc` (as `npm start` starts
 * it); elsewhere V8 collects when it decides to, and this does nothing.
 */
export const collectGarbage = (): void => (globalThis as { gc?: () => void }).gc?.();
