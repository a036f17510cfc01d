import {
  FluentProvider,
  makeStaticStyles,
  makeStyles,
  tokens,
  webDarkTheme,
  webLightTheme,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';

/** No white frame around the pane: the page itself has no margin, the shell paints the whole viewport. */
const usePageStyles = makeStaticStyles({ 'html, body': { margin: 0, padding: 0 } });

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    boxSizing: 'border-box',
    padding: tokens.spacingHorizontalM,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
  },
});

/**
 * Fluent theme (dark when Office or the browser asks for it) around a page. The page's own layout sits on an
 * inner element, not on the provider: FluentProvider copies its className onto the portal container of every
 * drop-down (applyStylesToPortals), and a full-height padded background there covered the whole pane.
 */
export function Shell({ dark, children }: { dark: boolean; children: ReactNode }) {
  usePageStyles();
  const styles = useStyles();
  return (
    <FluentProvider theme={dark ? webDarkTheme : webLightTheme}>
      <div className={styles.page}>{children}</div>
    </FluentProvider>
  );
}
