import { isEnumValue } from './enums.js';

export interface OfficeHostInfo {
  /** Outlook when running inside it; false in a plain browser tab or when office.js could not load. */
  inOutlook: boolean;
  /** Office's theme when it has one (Outlook's own light or dark setting), else the operating system's. */
  dark: boolean;
}

/** The operating system's (browser's) colour scheme. */
export const prefersDark = (): boolean => window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;

/**
 * Resolves once office.js is initialised; nothing may touch `Office.context` before this. Without office.js (the
 * CDN could not be reached, or the page was opened in a plain tab without it) it resolves at once, outside Outlook.
 */
export async function whenOfficeReady(): Promise<OfficeHostInfo> {
  if (typeof Office === 'undefined') return { inOutlook: false, dark: prefersDark() };
  const info = await Office.onReady();
  const background = Office.context?.officeTheme?.bodyBackgroundColor;
  return {
    inOutlook: isEnumValue(info.host, Office.HostType.Outlook) && Boolean(Office.context?.mailbox),
    dark: background ? isDarkColor(background) : prefersDark(),
  };
}

/** `#rrggbb` with a relative luminance under one half. */
export function isDarkColor(hex: string): boolean {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) return false;
  const [r, g, b] = match.slice(1).map((part) => Number.parseInt(part, 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5;
}

/**
 * Calls `handler` when Outlook's theme changes while the pane is open (OfficeThemeChanged), or, outside an Office
 * theme, the operating system's colour scheme. Returns nothing to undo: the pane lives as long as the page.
 */
export function onThemeChanged(handler: (dark: boolean) => void): void {
  window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', (event) => {
    if (!Office.context?.officeTheme?.bodyBackgroundColor) handler(event.matches);
  });
  const mailbox = Office.context?.mailbox;
  if (!mailbox) return;
  mailbox.addHandlerAsync(
    'officeThemeChanged' as unknown as Office.EventType.ItemChanged,
    (event: { officeTheme?: { bodyBackgroundColor?: string } }) => {
      const background = event.officeTheme?.bodyBackgroundColor;
      if (background) handler(isDarkColor(background));
    },
    // Hosts without the event keep the theme the pane opened with.
    () => undefined,
  );
}
