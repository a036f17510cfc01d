import { isEnumValue } from './enums.js';

/** A failed office-js call, with Office's own error code and message (e.g. 9030 "item not saved"). */
export class OfficeCallError extends Error {
  constructor(
    readonly operation: string,
    readonly code: number | undefined,
    message: string,
  ) {
    super(`${operation} failed: ${message}`);
    this.name = 'OfficeCallError';
  }
}

/**
 * Turns one callback-style office-js call into a promise that rejects on `AsyncResultStatus.Failed`.
 * Every office-js call in the add-in goes through here.
 */
export function officeCall<T>(
  operation: string,
  start: (callback: (result: Office.AsyncResult<T>) => void) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    try {
      start((result) => {
        if (isEnumValue(result.status, Office.AsyncResultStatus.Failed)) {
          reject(new OfficeCallError(operation, result.error?.code, result.error?.message ?? 'unknown error'));
        } else {
          resolve(result.value);
        }
      });
    } catch (error) {
      reject(new OfficeCallError(operation, undefined, error instanceof Error ? error.message : String(error)));
    }
  });
}
