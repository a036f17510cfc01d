import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { isRetryable, isUnreachable } from '../api/client.js';
import { useOffline } from './connection.js';

export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : 'Something went wrong. Try again.';

/**
 * An error in plain words, with Retry only where retrying can help (not for a refusal or a size limit). A
 * "cannot be reached" error is left to the one offline bar, unless `always` (the result of an action the person
 * just took).
 */
export function ErrorNotice({
  error,
  onRetry,
  title,
  always,
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
  always?: boolean;
}) {
  const offline = useOffline();
  if (offline && isUnreachable(error) && !always) return null;
  return (
    <MessageBar intent="error" layout="multiline">
      <MessageBarBody>
        {title && <MessageBarTitle>{title}</MessageBarTitle>}
        {messageOf(error)}
      </MessageBarBody>
      {onRetry && isRetryable(error) && (
        <MessageBarActions>
          <Button onClick={onRetry}>Retry</Button>
        </MessageBarActions>
      )}
    </MessageBar>
  );
}
