import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { type ReactNode, useEffect, useRef, useState } from 'react';

const useStyles = makeStyles({
  secret: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
});

/**
 * A secret Sitefile shows only this once (an API key's, a webhook's signing secret), with Copy and "I have stored
 * it". `children` say what it is, the secret itself in a `SecretText`.
 */
export function SecretOnce({
  title,
  secret,
  onDone,
  children,
}: {
  title: ReactNode;
  secret: string;
  onDone: () => void;
  children: ReactNode;
}) {
  const [copied, setCopied] = useState(false);
  const shown = useRef<HTMLDivElement>(null);
  // The form that made it is further down the page: bring the secret into view and give it the focus.
  useEffect(() => {
    shown.current?.scrollIntoView({ block: 'center' });
    shown.current?.focus();
  }, []);
  return (
    <MessageBar intent="warning" layout="multiline" ref={shown} tabIndex={-1}>
      <MessageBarBody>
        <MessageBarTitle>{title} — shown only this once</MessageBarTitle>
        {children}
      </MessageBarBody>
      <MessageBarActions>
        <Button
          onClick={async () => {
            await navigator.clipboard.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? 'Copied' : 'Copy secret'}
        </Button>
        <Button onClick={onDone}>I have stored it</Button>
      </MessageBarActions>
    </MessageBar>
  );
}

/** The secret's characters, monospaced and broken anywhere (it has no spaces). */
export function SecretText({ testId, children }: { testId: string; children: string }) {
  const styles = useStyles();
  return (
    <span className={styles.secret} data-testid={testId}>
      {children}
    </span>
  );
}
