import { FluentProvider, makeStyles, tokens, webDarkTheme, webLightTheme } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  root: {
    minHeight: '100vh',
    boxSizing: 'border-box',
    padding: tokens.spacingHorizontalM,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
  },
});

/** Fluent theme (dark when Office or the browser asks for it) around a page. */
export function Shell({ dark, children }: { dark: boolean; children: ReactNode }) {
  const styles = useStyles();
  return (
    <FluentProvider theme={dark ? webDarkTheme : webLightTheme} className={styles.root}>
      {children}
    </FluentProvider>
  );
}

export const prefersDark = (): boolean => window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
