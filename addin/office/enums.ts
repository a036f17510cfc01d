/**
 * Whether `value` is the documented office-js enum value `documented`, whatever its case: hosts differ in case
 * (Outlook on Mac answers `itemType: "Message"` where Outlook on the web answers "message", office-js issue #3908),
 * so every enum value a host hands over is compared through here. (office-js types some of these enums as numbers;
 * at run time they are the documented strings.)
 */
export const isEnumValue = (value: unknown, documented: unknown): boolean =>
  typeof value === 'string' && value.toLowerCase() === String(documented).toLowerCase();
