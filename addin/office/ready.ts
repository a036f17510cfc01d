export interface OfficeHostInfo {
  /** Outlook when running inside it; null in a plain browser tab (then the add-in explains what to do). */
  inOutlook: boolean;
  /** The Office theme asks for a dark background. */
  dark: boolean;
}

/** Resolves once office.js is initialised; nothing may touch `Office.context` before this. */
export async function whenOfficeReady(): Promise<OfficeHostInfo> {
  const info = await Office.onReady();
  const background = Office.context?.officeTheme?.bodyBackgroundColor;
  return { inOutlook: info.host === Office.HostType.Outlook, dark: background ? isDarkColor(background) : false };
}

/** `#rrggbb` with a relative luminance under one half. */
export function isDarkColor(hex: string): boolean {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) return false;
  const [r, g, b] = match.slice(1).map((part) => Number.parseInt(part, 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5;
}
