import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { ComponentProps } from 'react';

/** `column`: a tab's content, one block under another, narrowing with the pane (never wider than it). */
export const useLayoutStyles = makeStyles({
  column: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' },
  xs: { gap: tokens.spacingVerticalXS },
  s: { gap: tokens.spacingVerticalS },
  m: { gap: tokens.spacingVerticalM },
  entry: { borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, paddingBottom: tokens.spacingVerticalS },
});

/** A list without bullets or indent, its items one under another, `gap` apart. */
export function PlainList({ gap, className, ...props }: ComponentProps<'ul'> & { gap: 'xs' | 's' | 'm' }) {
  const styles = useLayoutStyles();
  return <ul className={mergeClasses(styles.list, styles[gap], className)} {...props} />;
}

/** An item of a `PlainList` set off from the next by a thin line. */
export function Entry({ className, ...props }: ComponentProps<'li'>) {
  const styles = useLayoutStyles();
  return <li className={mergeClasses(styles.entry, className)} {...props} />;
}
